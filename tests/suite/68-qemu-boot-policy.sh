#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~90s
# Boot-time runs for fleets, end to end in QEMU + OVMF with persistent NVRAM
# (qemu/run.sh --vars: a writable copy of OVMF_VARS_4M.fd kept between
# boots) and an ESP kept across boots (--keep-esp): the run policy
# (--run once / every=2), the hand-over to a stand-in OS loader
# (tests/efi/fake-os-loader.c: prints a marker, powers off) after a good
# run, after a boot that does not measure, after an unwritable ESP and
# after the time budget; a hang ended by the UEFI watchdog and recorded as
# hung by the next boot; --then next-boot-entry. After every boot the
# BaretopState variable is read out of the varstore file by
# tests/suite/lib/ovmf_varstore.py (EDK2's format, parsed independently of
# baretop) and compared with what the boot must have left.
set -uo pipefail

efi=build/baretop.efi
out=build/qemu/boot-policy
guid=6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93
loader='\EFI\os\loader.efi'
fail=0
pass=0
t_start=$(date +%s)

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# boot SERIES N [qemu/run.sh options...]: boot N of a series (one ESP, one
# varstore); its console is kept as SERIES/bootN.txt.
boot() {
  local s=$1 n=$2; shift 2
  local keep=--keep-esp
  [ "$n" = 1 ] && { rm -rf "${out:?}/$s"; mkdir -p "$out/$s"; keep=""; }
  local t0=$(date +%s.%N)
  bash qemu/run.sh --efi "$efi" --smp 1 --out "$out/$s" --vars "$out/$s/vars.fd" $keep --timeout 60 \
    --add build/tests/fake-os-loader.efi=/EFI/os/loader.efi "$@" >/dev/null 2>"$out/$s/boot$n.err"
  local rc=$?
  cp "$out/$s/console.txt" "$out/$s/boot$n.txt"
  secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")
  [ "$rc" = "${want_rc:-0}" ] || { bad "$s boot $n: qemu/run.sh exit status $rc"; sed 's/^/     /' "$out/$s/boot$n.err"; }
}
has() { grep -qF -- "$3" "$out/$1/boot$2.txt"; }
reached_loader() { has "$1" "$2" "fake-os-loader: started, taking over the machine"; }
# state SERIES "key=value ...": every pair as read from the varstore file
state() {
  python3 tests/suite/lib/ovmf_varstore.py "$out/$1/vars.fd" BaretopState "$guid" \
    --decode-baretop >"$out/$1/state.txt" 2>&1 || return 1
  for kv in $2; do grep -qx -- "$kv" "$out/$1/state.txt" || { echo "     want $kv, have:" \
    $(tr '\n' ' ' <"$out/$1/state.txt"); return 1; }; done
}
# writes SERIES: how many times BaretopState was written into the store so
# far (every record, live or deleted: EDK2 appends one per SetVariable)
writes() { python3 tests/suite/lib/ovmf_varstore.py "$out/$1/vars.fd" BaretopState "$guid" --count 2>/dev/null || echo 0; }
# nvw SERIES N: the writes of boot N (the count since the previous call), kept for the summary
declare -A last_writes
nvw() { local now; now=$(writes "$1"); w=$((now - ${last_writes[$1]:-0})); last_writes[$1]=$now; }
summary=""
nresults() { ls "$out/$1/esp/baretop/results/" 2>/dev/null | grep -c '^[0-9]*\.json$'; }
# json SERIES FILE PYTHON-EXPRESSION over r (the results document)
json() {
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($3) else 1)" \
    "$out/$1/esp/baretop/results/$2"
}

mkdir -p "$out"
make -s -j"$(nproc)" efi tests >/dev/null || { echo "FAIL build"; exit 1; }

# The varstore reader must be able to fail: a store without the variable.
check "varstore reader: a fresh OVMF_VARS_4M.fd has no BaretopState (exit 1)" \
  "! python3 tests/suite/lib/ovmf_varstore.py /usr/share/OVMF/OVMF_VARS_4M.fd BaretopState $guid >/dev/null 2>&1"

# --- hosted: the file-backed NVRAM (efivarfs format) and baretop-host efivar,
# decoded again by the independent Python reader of the documented layout
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build host"; exit 1; }
hn=$out/host-nvram; rm -rf "$hn"; mkdir -p "$hn"
for i in 1 2; do
  BARETOP_HOST_NVRAM=$hn build/baretop-host run --run=once --no-workloads --results-dir "$hn/r" \
    >"$hn/run$i.txt" 2>&1
done
hf=$hn/BaretopState-$guid
check "hosted --run=once: run 1 measured, run 2 handed over; efivarfs file of 4 + 72 bytes (version 2)" \
  "grep -q 'the first run' $hn/run1.txt && grep -q 'done already' $hn/run2.txt && [ \$(stat -c %s $hf) = 76 ]"
# run 1 recorded its end with its results (the results folder's note), not in
# NVRAM; run 2 finds it there and keeps it with the one write it makes (boots 2)
check "baretop-host efivar agrees with the Python reader of the table: boots 2, runs 1, ok, seq 1" \
  "grep -q 'run 1 ended ok (results 000001' $hn/run2.txt && build/baretop-host efivar $hf | grep -qx 'boots            2' && build/baretop-host efivar $hf | grep -q '^last_status      ok' && python3 -c 'import sys; sys.path.insert(0,\"tests/suite/lib\"); import ovmf_varstore as o; d=o.decode_baretop(open(\"$hf\",\"rb\").read()[4:]); sys.exit(0 if (d[\"boots\"],d[\"runs\"],d[\"last_status\"],d[\"last_sequence\"])==(2,1,\"ok\",1) else 1)'"
head -c 30 "$hf" >"$hn/truncated"
check "baretop-host efivar refuses a truncated file (exit 1, says why)" \
  "! build/baretop-host efivar $hn/truncated 2>$hn/err.txt && grep -q 'version 2 is 72 bytes' $hn/err.txt"

# --budget plans: a workload starts only when the mean of those before it
# still fits (the rule itself: test-boot-policy.c
# budget_plans_the_next_step_from_the_mean_of_those_before). Here on the
# host: 16 equal workloads against a 2 s budget end early, within the
# budget but for the noise of one workload longer than the mean (0.1 s).
BARETOP_HOST_NVRAM=$hn build/baretop-host run --run=every-boot --budget=2 --quick \
  $(printf -- '-w multiply1 %.0s' $(seq 16)) --reps 64 --warmups 40 --results-dir "$hn/b" >"$hn/budget.txt" 2>&1
check "hosted --budget=2: ended early, within 2 s + 0.1, the workloads left out listed" \
  "python3 -c \"import json,sys; b=json.load(open('$hn/b/000001.json'))['result']['boot']; sys.exit(0 if b['budget_ended'] and b['elapsed_s'] <= 2.1 and 0 < len(b['steps_not_run']) < 16 else 1)\""

small="-w multiply1 --reps 1 --warmups 0"

series1() {
# --- run=once: boot 1 measures, writes results, chainloads; boot 2 does not measure
boot once 1 --args "--run=once --then=chainload:$loader $small"
t1=$secs
check "once boot 1: measured (first run), results 000001.json, then the loader (${secs}s)" \
  "has once 1 'run=once: the first run' && [ \$(nresults once) = 1 ] && reached_loader once 1"
check "once boot 1: result.boot says policy once, boot 1, run 1, hand-over chainload" \
  "json once 000001.json \"r['result']['boot']['policy']=='once' and r['result']['boot']['boot_count']==1 and r['result']['boot']['run_number']==1 and r['result']['boot']['handover']=='chainload:'+r'$loader' and r['result']['boot']['nvram']=='written' and r['result']['exit_status']==0\""
check "once boot 1: NVRAM boots=1 runs=1 in progress; its end (ok) in the results note, run_tag matching" \
  "state once 'boots=1 runs=1 completed=0 hung=0 in_progress=True' && tag=\$(sed -n 's/^run_tag=//p' $out/once/state.txt) && grep -qx \"1 run=\$(printf %016x \$tag) status=1\" $out/once/esp/baretop/results/next-sequence"
nvw once; summary="$summary once:$w"
check "once boot 1: 1 NVRAM write (in progress before; the end is in the results note), as result.boot says" \
  "[ $w = 1 ] && json once 000001.json \"r['result']['boot']['nvram_writes']==1 and r['result']['boot']['end_record']=='results-note' and r['result']['boot']['end']['action']=='chainload'\""
boot once 2 --args "--run=once --then=chainload:$loader $small"
t2=$secs
ticks=$(grep -o 'hand-over [0-9]* TSC ticks after the entry point ([0-9.]* ms' "$out/once/boot2.txt")
check "once boot 2: measures nothing, reaches the loader directly (${secs}s against ${t1}s)" \
  "has once 2 'run=once: done already' && ! has once 2 'Workloads' && [ \$(nresults once) = 1 ] && reached_loader once 2"
check "once boot 2: the added boot time is printed: ${ticks#hand-over }" "[ -n \"$ticks\" ]"
nvw once; summary="$summary,$w"
check "once boot 2: 1 NVRAM write: run 1's end, found in the results note, kept" \
  "[ $w = 1 ] && has once 2 'run 1 ended ok (results 000001' && state once 'boots=2 runs=1 completed=1 last_sequence=1 last_status=ok in_progress=False'"
boot once 3 --args "--run=once --then=chainload:$loader $small"
nvw once; summary="$summary,$w"
check "once boot 3: no NVRAM write (nothing a later boot needs changed), the loader reached" \
  "[ $w = 0 ] && has once 3 'state unchanged, not written' && reached_loader once 3"
}

series2() {
# --- every=2: boots 1 and 3 measure, boot 2 does not
pattern=""; ew=""
for n in 1 2 3; do
  boot every2 $n --args "--run=every=2 --then=chainload:$loader --no-workloads"
  reached_loader every2 $n || bad "every2 boot $n: the loader was not reached"
  if has every2 $n "every=2: measuring on this boot"; then pattern="${pattern}1"; else pattern="${pattern}0"; fi
  nvw every2; ew="$ew$w"
done
summary="$summary every=2:${ew:0:1},${ew:1:1},${ew:2:1}"
check "every=2: NVRAM writes per boot $ew (want 111: a measuring boot 1, its end in the results note; the boot between 1 for boots_since_run)" \
  "[ '$ew' = 111 ]"
check "every=2: boots 1-3 measured '$pattern' (want 101), 2 results files, the loader every time" \
  "[ '$pattern' = 101 ] && [ \$(nresults every2) = 2 ]"
check "every=2: NVRAM boots=3 runs=2 completed=1 last_sequence=1 boots_since_run=0, run 2 in progress (its end in the note)" \
  "state every2 'boots=3 runs=2 completed=1 last_sequence=1 boots_since_run=0 last_status=ok in_progress=True' && grep -q '^2 run=[0-9a-f]* status=1\$' $out/every2/esp/baretop/results/next-sequence"
}

series3() {
# --- a failure during measurement: a write-protected ESP (no results file)
boot readonly 1 --readonly --args "--run=every-boot --then=chainload:$loader $small"
check "read-only ESP: results NOT written, still hands over to the loader" \
  "has readonly 1 'results       NOT written' && reached_loader readonly 1"
check "read-only ESP: NVRAM last_status=no-results completed=1 last_sequence=0" \
  "state readonly 'runs=1 completed=1 last_status=no-results last_sequence=0 in_progress=False'"
nvw readonly; summary="$summary every-boot(no results):$w"
check "every-boot: 2 NVRAM writes on a measuring boot whose results cannot be written (its end then goes to NVRAM)" "[ $w = 2 ]"

boot readonly 2 --readonly --args "--run=every-boot --then=chainload:$loader -w no-such-workload"
check "a configuration error under --run (-w no-such-workload): said so, still hands over" \
  "has readonly 2 \"no workload 'no-such-workload'\" && reached_loader readonly 2"
check "configuration error: found before the policy started: recorded as last_status=config-error, no run or boot counted" \
  "state readonly 'boots=1 runs=1 completed=1 last_status=config-error last_sequence=0 in_progress=False' && has readonly 2 'BaretopState last_status config-error (no run counted), written'"
}

series4() {
# --- the budget ends the measurement early and says what was not run
wl="multiply1 multiply2 multiply3 ptr-chase-l1 ptr-chase-l2 div-chain alu-dep-chain branch-mispredict"
boot budget 1 --args "--run=every-boot --budget=1 --then=chainload:$loader $(printf -- '-w %s ' $wl) --reps 40"
check "budget=1: ended early, steps listed as not run, the loader reached" \
  "has budget 1 'NOT RUN (budget)' && reached_loader budget 1"
check "budget=1: results: ran + not run = the 8 workloads asked for, in order, none twice" \
  "json budget 000001.json \"[o['name'] for o in r['run']['workloads']] + [s.split(' on CPU')[0] for s in r['result']['boot']['steps_not_run']] == '$wl'.split() and r['result']['boot']['budget_ended'] and r['result']['boot']['budget_s']==1 and len(r['result']['boot']['steps_not_run'])>0\""
nvw budget; summary="$summary every-boot:$w"
check "budget=1: 1 NVRAM write; NVRAM in progress until the next boot reads the results note (run 1 ended budget)" \
  "[ $w = 1 ] && state budget 'runs=1 completed=0 in_progress=True' && grep -q 'run=[0-9a-f]* status=5' $out/budget/esp/baretop/results/next-sequence"
}

series5() {
# --- a hang: the watchdog (budget + 5 s) resets the machine; the next boot records it
boot hang 1 --args "--run=every-boot --budget=1 --test-hang --then=chainload:$loader"
check "hang boot 1: spun until the watchdog reset the machine (${secs}s; no loader, no results)" \
  "has hang 1 'test-hang     spinning' && ! has hang 1 'done          exit status' && ! reached_loader hang 1"
nvw hang
check "hang boot 1: NVRAM was written before: runs=1 in_progress=True, once ($w write)" \
  "state hang 'boots=1 runs=1 completed=0 in_progress=True' && [ $w = 1 ]"
boot hang 2 --args "--run=every-boot --budget=1 --test-hang --then=chainload:$loader"
check "hang boot 2: sees the unfinished run, records it as hung, hands over without measuring" \
  "has hang 2 'never ended' && ! has hang 2 'test-hang     spinning' && reached_loader hang 2"
nvw hang
check "hang boot 2: NVRAM boots=2 runs=1 hung=1 last_status=hung in_progress=False ($w write)" \
  "state hang 'boots=2 runs=1 completed=0 hung=1 last_status=hung in_progress=False' && [ $w = 1 ]"
}

series6() {
# --- a fault in baretop itself (--crash-test: an unguarded UD2 on its CPU)
# under --run: reported, the machine reset instead of powered off (no
# --qemu-exit here, so QEMU's -no-reboot ends it), the next boot hands over
boot crash 1 --no-unattended --args "--run=every-boot --crash-test --then=chainload:$loader"
check "crash boot 1: the #UD is reported, the run recovered and the machine reset (within the cap, recorded)" \
  "has crash 1 'unexpected #UD' && has crash 1 'its end is decided as a crash' && has crash 1 'then          resetting (after an exception on baretop' && ! reached_loader crash 1 && state crash 'boots=1 runs=1 last_status=crashed in_progress=False hand_over_next=True resets=1'"
boot crash 2 --no-unattended --args "--run=every-boot --crash-test --then=chainload:$loader"
check "crash boot 2: does not measure (the boot before reset after a crash), the loader is reached" \
  "has crash 2 'the boot before reset the machine after run 1 ended crashed' && reached_loader crash 2 && state crash 'boots=2 runs=1 last_status=crashed in_progress=False hand_over_next=False'"
# with --qemu-exit (run.sh's default) QEMU ends the boot as a failure only
# after the crash's end is recorded (before: the state stayed in progress,
# and the next boot recorded a hang)
want_rc=1 boot crashq 1 --args "--run=every-boot --crash-test --no-workloads"
check "crash with --qemu-exit: QEMU ended with the failure (exit status 1), recorded as crashed first (not left in progress)" \
  "has crashq 1 'unexpected #UD' && state crashq 'runs=1 last_status=crashed in_progress=False'"
}

series7() {
# --- then=next-boot-entry: the BootOrder entry after baretop's (OVMF: the
# EFI shell, whose startup.nsh starts the loader)
printf 'fs0:\r\n\\EFI\\os\\loader.efi\r\n' >"$out/startup.nsh"
boot next 1 --add "$out/startup.nsh=/startup.nsh" --args "--run=once --then=next-boot-entry --no-workloads"
check "next-boot-entry: started the BootOrder entry after BootCurrent, which reached the loader" \
  "has next 1 'next-boot-entry: Boot0002 \"EFI Internal Shell\" (after Boot0001 in BootOrder)' && reached_loader next 1"
}

# The seven series above are independent (each its own ESP, varstore and
# folder): they run two at a time (one QEMU each, --smp 1, on a 2-core
# machine), each series' boots in order; their lines are printed in the
# series' order and counted here.
for i in 1 2 3 4 5 6 7; do
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  ( summary=""; series$i >"$out/series$i.out" 2>&1; echo "$summary" >"$out/series$i.sum" ) &
done
wait
for i in 1 2 3 4 5 6 7; do
  cat "$out/series$i.out"
  pass=$((pass + $(grep -c '^ok   ' "$out/series$i.out")))
  fail=$((fail + $(grep -c '^FAIL ' "$out/series$i.out")))
  [ -s "$out/series$i.sum" ] || { bad "series $i ended early (no summary)"; continue; }
  summary="$summary$(cat "$out/series$i.sum")"
done

if bash tests/suite/lib/esp-results-schema.sh "$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "NVRAM writes per boot (BaretopState records in the varstore file):$summary; a hung run 1 + 1"
echo "qemu boot policy: $pass passed, $fail failed ($(( $(date +%s) - t_start ))s)"
[ "$fail" -eq 0 ]

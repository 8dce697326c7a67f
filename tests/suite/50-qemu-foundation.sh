#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~80s
# End-to-end tests of baretop.efi in QEMU + OVMF (TCG, so no PMU):
# the binary, identification on Intel and AMD CPU models, the fault guard,
# bad arguments, a read-only and a full ESP, and results never overwritten.
set -uo pipefail

efi=build/baretop.efi
out=build/qemu/suite
fail=0
pass=0

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# start NAME EXPECTED_RC [qemu/run.sh options...]: boots in the background,
# two at a time (each boot is one QEMU process, mostly one busy vCPU, on a
# 2-core machine; the boots are independent: each has its own ESP image);
# finish NAME waits for that boot and checks its exit status.
declare -A want_rc=()
start() {
  local name=$1
  want_rc[$name]=$2; shift 2
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  ( t0=$(date +%s.%N)
    bash qemu/run.sh --efi "$efi" --out "$out/$name" "$@" >/dev/null 2>"$out/$name.err"
    rc=$?
    printf '%s %.1f\n' "$rc" "$(echo "$(date +%s.%N) - $t0" | bc)" >"$out/$name.rc" ) &
  boot_pid[$name]=$!
}
declare -A boot_pid=()
finish() {
  local name=$1 rc secs
  wait "${boot_pid[$name]}" 2>/dev/null
  read -r rc secs <"$out/$name.rc" 2>/dev/null || { rc=none; secs=?; }
  if [ "$rc" = "${want_rc[$name]}" ]; then
    ok "$name: exit status $rc (${secs}s)"
  else
    bad "$name: exit status $rc, expected ${want_rc[$name]}"; sed 's/^/     /' "$out/$name.err"
    tail -20 "$out/$name/console.txt" 2>/dev/null | sed 's/^/     | /'
  fi
}
# boot NAME EXPECTED_RC [qemu/run.sh options...]: start and finish.
boot() { start "$@"; finish "$1"; }
console_has() { grep -qF -- "$2" "$out/$1/console.txt"; }

mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }

# Every boot but seq-2 (which boots seq-1's ESP again) starts here, two at
# a time; the checks below take each one's outputs as it ends. full-dir's
# earlier result is placed first.
rm -f "$out"/*.rc
mkdir -p "$out/tmp" && echo "earlier" >"$out/tmp/000001.json"
start skylake 0 --cpu Skylake-Client --smp 2 --args "--fault-selftest"
start default-cpu 0 --smp 2
start icelake 0 --cpu Icelake-Server --smp 2 --args "--no-workloads"
start epyc 0 --cpu EPYC --smp 4
start ap-fault 0 --cpu Skylake-Client --smp 2 --args "--fault-selftest-ap --no-workloads"
start crash 1 --cpu Skylake-Client --args "--crash-test --no-workloads"
start stack-smash 1 --cpu Skylake-Client --args "--stack-smash-test --no-workloads"
start assert 1 --cpu Skylake-Client --args "--assert-test --no-workloads"
start help 0 --args "--help"
start bad-option 2 --args "--no-such-option"
start missing-value 2 --args "--results-dir"
start bad-quote 2 --args '--results-dir "unterminated'
start readonly 3 --cpu Skylake-Client --readonly
start full 3 --fill-esp --args "--min-free 0"
start full-dir 3 --add "$out/tmp/000001.json=/baretop/results/000001.json" --fill-esp --args "--min-free 0"
start seq-1 0 --cpu Skylake-Client
start then-boot 0 --cpu Skylake-Client --no-unattended --timeout 60 \
  --add build/tests/fake-os-loader.efi=/EFI/os/loader.efi \
  --args '--no-workloads --then-boot \EFI\os\loader.efi'

# --- the binary -------------------------------------------------------------
check "file(1) reports a PE32+ EFI application for x86-64" \
  "file $efi | grep -q 'PE32+ executable (EFI application) x86-64'"
# The linker map names the archive each object came from: the formatter
# and malloc must come from the newlib libc.a built by
# tools/build-newlib.sh (printf and fprintf format with its vsnprintf:
# efi/stdio.c).
newlib=$(bash tools/build-newlib.sh --dir)
check "printf formats with newlib's (svfprintf from $newlib/lib/libc.a)" \
  "grep -qF '$newlib/lib/libc.a(lib_a-svfprintf.o)' build/efi/baretop.map"
check "malloc is newlib's (mallocr from libc.a)" \
  "grep -qF '$newlib/lib/libc.a(lib_a-mallocr.o)' build/efi/baretop.map"
check "no glibc in the image" "! grep -q GLIBC $efi"

# --- identification ---------------------------------------------------------
finish skylake
python3 tests/qemu/check-results.py "$out/skylake/esp/baretop/results/000001.json" \
  Skylake-Client 2 --fault-selftest && ok "skylake: results fields" || bad "skylake: results fields"
check "skylake: console says there is no architectural PMU" \
  "console_has skylake 'none: CPUID.0AH reports version 0: no architectural PMU'"
check "skylake: the fault guard caught UD2" \
  "console_has skylake 'fault guard   installed, checked (UD2 raised #UD and was caught)'"
check "skylake: RDPMC raised #UD, was reported, and the run completed" \
  "console_has skylake 'RDPMC ECX=0' && grep -q 'RDPMC ECX=0 .*raised #UD, caught' $out/skylake/console.txt && console_has skylake 'done          exit status 0'"

finish default-cpu
python3 tests/qemu/check-results.py "$out/default-cpu/esp/baretop/results/000001.json" \
  default 2 && ok "default CPU: results fields (AuthenticAMD)" || bad "default CPU: results fields"

# Icelake-Server: README lists it as verified; QEMU gives it model 134, not ICX's 0x6a.
finish icelake
python3 tests/qemu/check-results.py "$out/icelake/esp/baretop/results/000001.json" \
  Icelake-Server 2 && ok "Icelake-Server: results fields" || bad "Icelake-Server: results fields"

finish epyc
python3 tests/qemu/check-results.py "$out/epyc/esp/baretop/results/000001.json" \
  EPYC 4 && ok "EPYC -smp 4: results fields" || bad "EPYC -smp 4: results fields"

# An unexpected exception in a job on an AP is reported by the BSP and
# recovered (the AP's procedure returns to the MP services: nothing is left
# inside baretop for ExitBootServices to wait for), and the run completes;
# one on baretop's own CPU is reported, the run ends as a crashed one (never
# a power-off) and QEMU is told it failed.
finish ap-fault
check "ap-fault: reported with its address by the BSP" \
  "grep -q 'unexpected exception 6 at RIP .* = baretop.efi+0x.* on CPU 1; recovered' $out/ap-fault/console.txt"
check "ap-fault: the run completed" "console_has ap-fault 'recovered, its procedure returned to the MP services, run continues' && console_has ap-fault 'done          exit status 0'"
# The job's cleanup (how a CPU lost in mid-window gets its PMU session
# closed) ran on the AP, once, after the fault and before its procedure
# returned to the firmware.
check "ap-fault: the AP's cleanup ran once" \
  "console_has ap-fault 'its cleanup ran 1 time(s)' && console_has ap-fault 'the job was abandoned, cleaned up and the CPU returned to the firmware'"
finish crash
check "crash: reported with its address, then the end of a crashed run (QEMU told it failed)" \
  "grep -q 'baretop: unexpected #UD invalid opcode' $out/crash/console.txt && console_has crash 'cannot continue this run: its end is decided as a crash'"
# The stack protector: a protected function that overruns its local array
# fails its canary check, which reports through the same fault reporter (the
# address resolves to that function in the image's symbols) and ends as a
# crashed run (efi/fault-guard.c), telling QEMU it failed. A failed
# BT_ASSERT ends the same way, with file:line and the
# expression.
so_sym() { # OFFSET: the function of build/efi/baretop.so (image base 0) that contains it
  local a=$(($1)) f= addr t name
  while read -r addr t name; do
    [[ $t == [tT] ]] || continue
    ((16#$addr <= a)) || break
    f=$name
  done < <(nm -n build/efi/baretop.so)
  echo "$f"
}
finish stack-smash
check "stack-smash: reported by the stack check, then the end of a crashed run (QEMU told it failed)" \
  "console_has stack-smash 'baretop: stack smashing detected' && console_has stack-smash 'cannot continue this run: its end is decided as a crash'"
smash_at=$(grep -o 'baretop.efi+0x[0-9a-f]*' "$out/stack-smash/console.txt" | head -1 | cut -d+ -f2)
check "stack-smash: the address is in the function that overran its buffer (overflow_local)" \
  "[ -n '$smash_at' ] && [ \"\$(so_sym $smash_at)\" = overflow_local ]"
finish assert
check "assert: file:line and the expression reported, then the end of a crashed run (QEMU told it failed)" \
  "console_has assert 'baretop: assertion failed' && grep -qE '^  app/app-main\.c:[0-9]+: invariant_holds' $out/assert/console.txt && console_has assert 'cannot continue this run: its end is decided as a crash'"
check "assert: the address is in the function with the check (bt_app_main)" \
  "[ \"\$(so_sym \$(grep -o 'baretop.efi+0x[0-9a-f]*' $out/assert/console.txt | head -1 | cut -d+ -f2))\" = bt_app_main ]"

# --- arguments --------------------------------------------------------------
finish help
check "help: lists the options and exit statuses" \
  "console_has help '--results-dir DIR' && console_has help 'Exit status: 0 success'"
finish bad-option
check "bad-option: names the option and the file it came from" \
  "console_has bad-option \"baretop: \\EFI\\BOOT\\baretop.cfg: unknown option '--no-such-option'\""
check "bad-option: one line that points to --help" "console_has bad-option \"--help')\""
finish missing-value
check "missing-value: says the option needs a value" \
  "console_has missing-value \"option '--results-dir' needs a value\""
finish bad-quote
check "bad-quote: reports the unterminated quote with its line" \
  "console_has bad-quote 'baretop.cfg:4: unterminated quote'"

# --- the ESP ----------------------------------------------------------------
finish readonly
# Complete = every section to the end, not just the start: the PMU section,
# the last workload of the default suite, and the final status line.
check "readonly: the report is complete (PMU section, every workload, final status)" \
  "grep -qx 'PMU' $out/readonly/console.txt && grep -qE '^  memory-order-clears +(.* checksum |skipped: needs 2 APs)' $out/readonly/console.txt && console_has readonly 'done          exit status 3'"
check "readonly: says the volume is write-protected" \
  "console_has readonly 'NOT written: cannot create \\baretop\\results: the volume is write-protected'"
check "readonly: no results file" "[ ! -e $out/readonly/esp/baretop ]"

finish full
check "full ESP: says the volume is full" "console_has full 'the volume is full'"

# The results folder exists but there is no room for the file itself.
finish full-dir
check "full ESP, existing folder: says the volume is full" "console_has full-dir 'the volume is full'"
check "full ESP, existing folder: no partial or temporary file left" \
  "[ \"\$(ls $out/full-dir/esp/baretop/results)\" = 000001.json ]"
check "full ESP, existing folder: the earlier result is intact" \
  "[ \"\$(cat $out/full-dir/esp/baretop/results/000001.json)\" = earlier ]"

# Results are never overwritten: boot the same ESP twice, with a result from
# "another run" (000002) placed between the two boots.
finish seq-1
sum1=$(sha256sum <"$out/seq-1/esp/baretop/results/000001.json")
mkdir -p "$out/seq-2" && cp "$out/seq-1/esp.img" "$out/seq-2/esp.img"
echo '{"placed": "by another run"}' >"$out/tmp/000002.json"
mcopy -o -i "$out/seq-2/esp.img" "$out/tmp/000002.json" ::/baretop/results/000002.json
boot seq-2 0 --cpu Skylake-Client --keep-esp
check "second boot: wrote 000003.json" "[ -f $out/seq-2/esp/baretop/results/000003.json ]"
check "second boot: 000001.json unchanged" \
  "[ \"\$(sha256sum <$out/seq-2/esp/baretop/results/000001.json)\" = \"$sum1\" ]"
check "second boot: 000002.json (another run's) unchanged" \
  "grep -q 'by another run' $out/seq-2/esp/baretop/results/000002.json"
check "second boot: its sequence field is 3" \
  "python3 -c 'import json,sys; sys.exit(json.load(open(\"$out/seq-2/esp/baretop/results/000003.json\"))[\"sequence\"] != 3)'"

# Boot, measure, save, hand over: --then-boot starts the OS loader once the
# results are written and baretop's changes are undone (no --shutdown here:
# the stand-in loader powers the machine off itself).
finish then-boot
check "then-boot: results written before the hand-over" \
  "[ -f $out/then-boot/esp/baretop/results/000001.json ]"
check "then-boot: the loader ran after baretop finished" \
  "grep -A3 'done          exit status 0' $out/then-boot/console.txt | grep -q 'then          starting' && grep -q 'fake-os-loader: started' $out/then-boot/console.txt"
check "then-boot: the loader knows its own file path (shim and GRUB need it)" \
  "grep -qF 'fake-os-loader: FilePath=\EFI\os\loader.efi' $out/then-boot/console.txt"
check "then-boot: its device handle is the boot volume, and it gets no load options" \
  "grep -q 'DeviceHandle has a file system: yes' $out/then-boot/console.txt && grep -q 'LoadOptionsSize=0' $out/then-boot/console.txt"

# Every results file of these boots against the schema, less the ones this
# step planted on the ESP itself.
if bash tests/suite/lib/esp-results-schema.sh "$out" "$out"/tmp/*.json; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "qemu foundation: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~30s
# Many CPUs under real EDK2 MP code on two firmwares: Debian's OVMF and OVMF
# built from Debian's edk2 source with the PCDs real boards ship
# (tools/build-ovmf.sh: 4 KiB AP stacks packed with no guard page, as
# Whitley; the MWAIT AP loop, as Intel's client silicon packages), built
# once and cached outside the tree.
#  - `--cpu all --sim=skl` (Debian's OVMF: `--cpu 0,1,2,3`) on -smp 4 as
#    1 socket x 2 cores x 2 threads, on both firmwares (two boots at once; -cpu Skylake-Client has no MONITOR,
#    so the built OVMF takes its HLT loop, MpLib.c GetApLoopMode): every
#    CPU measured where it runs (a tree per CPU, the simulated counts equal
#    on every CPU and both firmwares), the BSP's SMT sibling left out
#    (--cpu all) or, named, measured PERTURBED with its simulated probe
#    seeing that sibling run, and each AP job's stack in the results with at most 4 KiB of
#    the firmware's. The BSP's sibling is worked out here from QEMU's
#    topology (APIC ID = core << 1 | thread for 2 threads per core) and
#    MpInitLib numbering processors in APIC ID order (MpLib.c SortApicId):
#    CPU 1.
#  - `--fault-selftest-ap --then next-boot-entry` on the built OVMF in its
#    MWAIT loop (-cpu Skylake-Client,+monitor; -smp 2, one AP: QEMU's TCG
#    reports CPUID.05H:EBX = 0, on which MpInitLib's MWAIT loop hangs with
#    two APs or more, tools/build-ovmf.sh), persistent NVRAM, BootOrder
#    [baretop, Debian's cloud kernel with `console=ttyS0 earlyprintk=serial`
#    as its load options] (tools/get-linux-kernel.sh), restarts allowed. In
#    this mode EDK2 wakes APs at ExitBootServices by a memory write and waits
#    for all (DxeMpLib.c MpInitChangeApLoopCallback), so an AP left in
#    baretop hangs the kernel's start for good. Two boots at once: a fault
#    recovered (the AP back in the firmware's loop: boot 1 hands over
#    itself), and one whose cleanup faults too under `--run once`
#    (`--fault-selftest-ap-lost`: the CPU is not accounted for, so boot 1
#    must end with a reset, the results and BaretopState saying why, and
#    boot 2 hand over). Each time the kernel must print its first line,
#    which it does after ExitBootServices.
# Without the cached OVMF the step builds it first (about 4.5 minutes of 2
# CPUs, once; tools/build-ovmf.sh) and fetches the kernel (14 MB, once).
set -uo pipefail

out=build/qemu/edk2-mp
fail=0
pass=0
t_start=$(date +%s)
ok()  { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

rm -rf "$out"
mkdir -p "$out"
make -s -j2 efi >/dev/null || { echo "FAIL build"; exit 1; }
fw=$(bash tools/build-ovmf.sh) || { echo "FAIL tools/build-ovmf.sh"; exit 1; }
kernel=$(bash tools/get-linux-kernel.sh) || { echo "FAIL tools/get-linux-kernel.sh"; exit 1; }
t_ready=$(date +%s)
grep -q 'PcdCpuApStackSize = 0x1000; PcdCpuApLoopMode = 2; PcdCpuStackGuard = 0' "$fw/build.txt" &&
  ok "the built OVMF's MP library has 4 KiB AP stacks, the MWAIT loop, no stack guard ($fw/build.txt)" ||
  bad "the built OVMF's PCDs: $(grep AutoGen "$fw/build.txt")"

# CPUID.01H:ECX[3] of a -cpu model as QEMU expands it (QMP), independently
# of the firmware and of baretop: MONITOR decides OVMF's loop mode.
monitor_of() {
  printf '%s\n' '{"execute":"qmp_capabilities"}' \
    "{\"execute\":\"query-cpu-model-expansion\",\"arguments\":{\"type\":\"full\",\"model\":$1}}" \
    '{"execute":"quit"}' |
    timeout 30 qemu-system-x86_64 -machine none -nodefaults -display none -qmp stdio 2>/dev/null |
    python3 -c 'import json, sys
for l in sys.stdin:
    r = json.loads(l).get("return")
    if isinstance(r, dict) and "model" in r:
        print(r["model"]["props"]["monitor"])'
}
m1=$(monitor_of '{"name":"Skylake-Client"}')
m2=$(monitor_of '{"name":"Skylake-Client","props":{"monitor":true}}')
[ "$m1" = False ] && [ "$m2" = True ] &&
  ok "CPUID.01H:ECX[3] MONITOR: clear on -cpu Skylake-Client (the HLT loop), set with +monitor (the MWAIT loop)" ||
  bad "MONITOR on Skylake-Client '$m1', with +monitor '$m2'"

# --- --cpu all on -smp 4 (2 cores x 2 threads), both firmwares at once
smp=4,sockets=1,cores=2,threads=2
all() { # NAME CPUS [qemu/run.sh options...]
  local name=$1 cpus=$2; shift 2
  local t0=$(date +%s)
  bash qemu/run.sh --cpu Skylake-Client --smp "$smp" --timeout 240 --out "$out/$name" \
    --args "--cpu $cpus --sim=skl -w alu-independent" "$@" >/dev/null 2>"$out/$name.err"
  echo "$? $(( $(date +%s) - t0 ))" >"$out/$name.rc"
}
# Debian's names every CPU (the BSP's sibling measured, PERTURBED), the
# built one's says all (that sibling left out).
all debian 0,1,2,3 & all built all --firmware "$fw" & wait
for name in debian built; do
  read -r rc secs <"$out/$name.rc"
  [ "$rc" = 0 ] && ok "$name OVMF: --cpu all on -smp $smp powered off with exit status 0 (${secs}s)" ||
    { bad "$name OVMF: exit status $rc after ${secs}s"; grep -E 'unexpected|RIP|baretop:' "$out/$name/console.txt"; }
  ! grep -qE 'unexpected|exception|OVERFLOW' "$out/$name/console.txt" &&
    ok "$name OVMF: no exception, no stack overflow on the console" ||
    bad "$name OVMF: $(grep -E 'unexpected|exception|OVERFLOW' "$out/$name/console.txt" | head -2)"
  python3 - "$out/$name/esp/baretop/results/000001.json" "$name" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except OSError as e:
    print("FAIL %s OVMF: no results file (%s)" % (sys.argv[2], e.strerror))
    sys.exit(1)
w = {x["cpu"]: x for x in r["run"]["workloads"]}
ok = True
def check(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + sys.argv[2] + " OVMF: " + what)
    ok &= bool(cond)
check(sorted(w) == [0, 1, 2, 3], "one outcome per logical CPU: %s" % sorted(w))
def level1(x):
    t = x["counted"]["tree"]
    return {k: v for k, v in t["values"].items() if k in
            ("Frontend_Bound", "Bad_Speculation", "Backend_Bound", "Retiring")}
measured = [c for c in (0, 2, 3) if c in w and w[c]["state"] == "ran" and w[c].get("counted")]
check(measured == [0, 2, 3], "a Top-Down tree on CPUs 0, 2 and 3 (measured: %s)" % measured)
inputs = {c: w[c]["counted"]["input"] for c in measured}
check(all(("CPU %d" % c) in json.dumps(inputs[c]) for c in measured),
      "each tree names the CPU it was counted on")
l1 = {c: level1(w[c]) for c in measured}
check(len(measured) == 3 and len({json.dumps(v, sort_keys=True) for v in l1.values()}) == 1,
      "level 1 the same on every CPU (the simulated PMU's counts): %s" % l1.get(2))
s = w.get(1, {})
left_out = s.get("state") == "skipped" and "sibling" in (s.get("reason") or "")
labelled = s.get("state") == "ran" and "PERTURBED" in (s.get("placement") or "")
check(left_out if sys.argv[2] == "built" else labelled, "CPU 1, the BSP's SMT sibling: %s (%s)" %
      (s.get("state"), s.get("reason") or s.get("placement")))
if labelled:
    # measured beside the BSP, which spins in the firmware's wait: the
    # simulated PMU sees that sibling run, as the tree's label says
    probe = (s.get("counted") or {}).get("smt_probe") or {}
    check(isinstance(s.get("perturbed"), dict) and probe.get("sibling_active", 0) > 0.99 and
          s["counted"]["constants"].get("SMT_SIBLING_ACTIVE") == 1,
          "CPU 1 PERTURBED and its probe says its sibling ran: sibling_active %s, "
          "SMT_SIBLING_ACTIVE %s" % (probe.get("sibling_active"),
                                     s["counted"]["constants"].get("SMT_SIBLING_ACTIVE")))
for c in (2, 3):
    st = w.get(c, {}).get("ap_stack")
    check(st is not None and st["jobs"] >= 1 and not st["overflow"] and
          st["used_bytes"] <= st["size_bytes"] and st["firmware_used_bytes"] <= 4096,
          "CPU %d's AP jobs: %s (at most 4096 bytes of the firmware's stack)" % (c, st))
print(json.dumps(l1.get(0), sort_keys=True), file=open(sys.argv[1] + ".level1", "w"))
sys.exit(0 if ok else 1)
PY
  [ $? = 0 ] && pass=$((pass + 1)) || fail=$((fail + 1))
done
cmp -s "$out/debian/esp/baretop/results/000001.json.level1" \
  "$out/built/esp/baretop/results/000001.json.level1" 2>/dev/null &&
  ok "the same level 1 on both firmwares" || bad "level 1 differs between the firmwares"

# --- an AP fault, then next-boot-entry to Linux, in the MWAIT loop: one
# recovered (no --run), one whose CPU is lost (--run once), at once
linux_next() { # NAME BARETOP-ARGS
  local s=$out/$1 t0=$(date +%s)
  mkdir -p "$s"
  cp "$fw/OVMF_VARS.fd" "$s/vars.fd"
  bo() { python3 tests/suite/lib/boot_options.py "$s/vars.fd" "$@"; }
  bo add 1 baretop 'file:\EFI\BOOT\BOOTX64.EFI'
  bo add 2 'Debian cloud kernel' 'file:\EFI\linux\vmlinuz.efi' 'console=ttyS0 earlyprintk=serial'
  bo order 1,2
  bash qemu/run.sh --firmware "$fw" --cpu Skylake-Client,+monitor --smp 2 --out "$s" \
    --vars "$s/vars.fd" --reboot --no-unattended --timeout 150 --until '\] Linux version ' \
    --add "$kernel=/EFI/linux/vmlinuz.efi" --args "$2 --then=next-boot-entry --no-workloads" \
    >/dev/null 2>"$s/run.err"
  echo "$? $(( $(date +%s) - t0 ))" >"$s/rc"
}
linux_next recovered --fault-selftest-ap & linux_next lost "--run=once --fault-selftest-ap-lost" & wait
for name in recovered lost; do
  s=$out/$name c=$out/$name/console.txt
  read -r rc secs <"$s/rc"
  banners=$(grep -c 'bare-metal Top-Down analysis' "$c")
  handovers=$(grep -c 'next-boot-entry: Boot0002 "Debian cloud kernel"' "$c")
  [ "$rc" = 0 ] && ok "$name: Linux printed its first line, after ExitBootServices ($(grep -o 'Linux version [^ ]*' "$c" | head -1); ${secs}s, $banners baretop boot(s))" ||
    { bad "$name: no kernel line within 150 s (run.sh status $rc): the hand-over hung"; tail -3 "$c"; }
  grep -q '^AP fault test  unguarded UD2 on CPU 1: ' "$c" && ! grep -q 'NOT caught' "$c" &&
    ok "$name: boot 1 caught the AP's fault" || bad "$name: the AP fault test: $(grep 'AP fault test' "$c")"
  [ -f "$s/esp/baretop/results/000001.json" ] && ok "$name: boot 1's results written" ||
    bad "$name: no results file"
  # A CPU baretop cannot account for ends the boot with a reset (results and
  # BaretopState say why) and the next boot hands over; a recovered one
  # (its procedure back in the firmware's loop) lets this boot hand over.
  if [ "$name" = recovered ]; then
    [ "$banners" = 1 ] && [ "$handovers" = 1 ] && [ "$rc" = 0 ] &&
      ok "$name: the same boot handed over, the kernel started, no reset" ||
      bad "$name: $banners boot(s), $handovers hand-over(s), the kernel $([ "$rc" = 0 ] || echo 'not ')started"
    continue
  fi
  grep -q 'CPU 1 .*not accounted for, the run ends with a reset' "$c" &&
    ok "$name: boot 1 says CPU 1 is not accounted for" || bad "$name: no CPU said unaccounted"
  [ "$banners" = 2 ] && [ "$handovers" = 1 ] &&
    ok "$name: boot 1 reset, boot 2 handed over to the kernel" || bad "$name: $banners boots, $handovers hand-over(s)"
  st=$(python3 tests/suite/lib/ovmf_varstore.py "$s/vars.fd" BaretopState \
         6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93 --decode-baretop 2>&1)
  grep -qx 'last_status=cpus-left' <<<"$st" && grep -qx 'resets=1' <<<"$st" &&
    ok "$name: BaretopState (read from the variable store file): last_status cpus-left, 1 reset" ||
    bad "$name: BaretopState: $(tr '\n' ' ' <<<"$st")"
  python3 - "$s/esp/baretop/results/000001.json" "$name" <<'PY' && pass=$((pass + 1)) || fail=$((fail + 1))
import json, sys
try:
    e = json.load(open(sys.argv[1]))["result"]["boot"]["end"]
except (OSError, KeyError, TypeError) as x:
    e = {"why": "no result.boot.end (%r)" % x}
good = e.get("action") == "reset" and "CPU" in (e.get("why") or "")
print(("ok   " if good else "FAIL ") + "%s: boot 1's results say its end was %s, why: %s"
      % (sys.argv[2], e.get("action"), e.get("why")))
sys.exit(0 if good else 1)
PY
done

if bash tests/suite/lib/esp-results-schema.sh "$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "qemu EDK2 MP: $pass passed, $fail failed ($(( $(date +%s) - t_start ))s, of which $(( t_ready - t_start ))s building or finding the firmware and the kernel)"
[ "$fail" -eq 0 ]

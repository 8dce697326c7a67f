#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~85s
# A fleet machine always reaches its OS, counted over whole series of boots
# with persistent NVRAM (qemu/run.sh --vars) and QEMU restarting on resets
# (qemu/run.sh --reboot: no -no-reboot), so a loop would go on until the
# time bound.
#
# Part 1, --then reboot never loops: the restart is taken only on a boot
# that measured, or when baretop was started one-shot (BootCurrent not in
# BootOrder); any other boot returns to the boot manager, which goes on
# with the next BootOrder entry (OVMF: the EFI shell, whose startup.nsh
# prints a marker and powers off). One QEMU run is the whole series, and
# its boots are counted on the serial console (baretop's banner, OVMF's
# "BdsDxe: loading" lines).
#   removable media: baretop is \EFI\BOOT\BOOTX64.EFI, started by the
#     entry OVMF creates for the disk (in BootOrder), --run once --then reboot;
#   Boot0000: baretop's own boot option, first in BootOrder (written into
#     the varstore file by tests/suite/lib/ovmf_varstore.py, EDK2's format).
# Each: exactly 2 baretop boots (the measuring one rebooted, the next one
# handed over and said why), then the shell.
#
# Part 2, the boot invariants over series of power-ons
# (tests/suite/lib/boot_series.py: each power-on one QEMU run over its
# resets; boots, resets, measurements, power-offs, NVRAM writes per boot and
# the OS stand-in counted from outside baretop: QEMU's flash-reset trace,
# the variable store file, the ESP image). The OS stand-in is
# tests/efi/fake-os-loader.c (prints a marker, powers off):
#   once-shutdown: --run once --then shutdown as \EFI\BOOT\BOOTX64.EFI, the
#     OS on a second disk after it in BootOrder, three power-ons: the power-off
#     only on the measuring boot, the OS on power-ons 2 and 3 (before: every
#     power-on powered off, the OS never reached);
#   systemd-boot (Debian's systemd-boot-efi 252 as \EFI\BOOT\BOOTX64.EFI,
#     entries baretop.conf and os.conf), as boot/README.md says to set it up:
#     os.conf the default, baretop one-shot (LoaderEntryOneShot, as `bootctl
#     set-oneshot` writes it, in the store before the first boot), --run
#     once: the measuring boot resets back to systemd-boot, which boots the
#     OS (before: baretop returned "not started", systemd-boot exited to the
#     firmware, the OS entry never reached);
#   systemd-boot with baretop as its default entry and no options (before:
#     EFI_SUCCESS, systemd-boot's menu waiting with its timeout off): the
#     measuring boot resets, the next one hands back to systemd-boot, which
#     starts baretop again; baretop refuses as its default entry and the
#     firmware goes on past systemd-boot (the shell's marker), no loop.
# Each series: resets <= measurements, the OS (where reachable) within 2
# boots of the last measurement, power-offs only on a measuring boot, at
# most 2 NVRAM writes by baretop in a boot, no time bound reached. The two
# parts run at once, one QEMU each (--smp 1).
set -uo pipefail

efi=build/baretop.efi
out=build/qemu/reboot-no-loop
gvar=8be4df61-93ca-11d2-aa0d-00e098032b8c
fail=0
pass=0
t_start=$(date +%s)
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

mkdir -p "$out"
make -s -j2 efi tests >/dev/null || { echo "FAIL build"; exit 1; }
printf 'echo shell-marker: startup.nsh after baretop\r\nreset -s\r\n' >"$out/startup.nsh"
args="--run=once --then=reboot --no-workloads"

# series S [qemu/run.sh options...]: one QEMU run over every boot, bounded
series() {
  local s=$1; shift
  bash qemu/run.sh --efi "$efi" --smp 1 --out "$out/$s" --vars "$out/$s/vars.fd" --reboot \
    --no-unattended --timeout 120 --add "$out/startup.nsh=/startup.nsh" "$@" \
    >/dev/null 2>"$out/$s/run.err"
  rc=$?
  cp "$out/$s/console.txt" "$out/$s/series.txt"
}
count() { grep -cF -- "$2" "$out/$1/series.txt"; }
has() { grep -qF -- "$2" "$out/$1/series.txt"; }

part1() {
# --- removable media
rm -rf "${out:?}/media"; mkdir -p "$out/media"
series media --args "$args"
n=$(count media 'bare-metal Top-Down analysis'); loads=$(count media 'BdsDxe: loading Boot')
echo "     removable media: $n baretop boot(s), $loads boot option load(s) by BDS, QEMU exit $rc"
check "removable media, --run once --then reboot: exactly 2 baretop boots ($n), then the shell, QEMU powered off ($rc)" \
  "[ $n = 2 ] && has media 'shell-marker: startup.nsh after baretop' && [ $rc = 0 ]"
check "boot 1 measured and rebooted (this boot measured)" \
  "has media 'run=once: the first run' && has media 'then          rebooting: this boot measured'"
check "boot 2 did not measure: the reboot NOT taken and why, returned as not started (as the firmware logs it)" \
  "has media 'run=once: done already' && has media 'then          reboot NOT taken: this boot did not measure, and a boot that does not never resets' && has media 'BdsDxe: failed to start Boot0001 \"UEFI Non-Block Boot Device\" from PciRoot(0x0)/Pci(0x2,0x0): Not started'"
check "the results file of boot 1 records the reboot taken, and why later boots will not take it" \
  "python3 -c \"import json,sys; b=json.load(open('$out/media/esp/baretop/results/000001.json'))['result']['boot']['reboot']; sys.exit(0 if b['taken'] and 'a boot that does not will not restart' in b['why'] else 1)\""

# --- baretop as Boot0000, first in BootOrder
rm -rf "${out:?}/boot0000"; mkdir -p "$out/boot0000"
# Boot 0: the firmware makes its own entries in a fresh store; the OS
# stand-in in baretop's place powers off (baretop would keep a state).
bash qemu/run.sh --efi build/tests/fake-os-loader.efi --smp 1 --out "$out/boot0000" \
  --vars "$out/boot0000/vars.fd" --timeout 60 >/dev/null \
  2>"$out/boot0000/run.err" || bad "boot0000: the first boot failed"
python3 - "$out/boot0000/vars.fd" "$gvar" <<'PY' || bad "writing Boot0000"
import struct, sys
sys.path.insert(0, 'tests/suite/lib')
import ovmf_varstore as o
path, gvar = sys.argv[1], sys.argv[2]
blob = open(path, 'rb').read()
raw = o.find(blob, 'BootOrder', gvar)
order = list(struct.unpack('<%dH' % (len(raw) // 2), raw))
# The ESP disk's own entry (Boot0001): its device path, for baretop's Boot0000.
b1 = o.find(blob, 'Boot0001', gvar)
plen = struct.unpack_from('<H', b1, 4)[0]
desc_end = 6
while b1[desc_end:desc_end + 2] != b'\0\0':
    desc_end += 2
dev = b1[desc_end + 2:desc_end + 2 + plen]
assert dev[-4:] == bytes([0x7f, 0xff, 4, 0]), dev.hex()
f = ('\\EFI\\BOOT\\BOOTX64.EFI\0').encode('utf-16-le')
path_list = dev[:-4] + struct.pack('<BBH', 4, 4, 4 + len(f)) + f + dev[-4:]
d = 'baretop\0'.encode('utf-16-le')
blob = o.set_variable(blob, 'Boot0000', gvar, 7, struct.pack('<IH', 1, len(path_list)) + d + path_list)
# baretop first, then the shell (Boot0002); the disk's own entry last
blob = o.set_variable(blob, 'BootOrder', gvar, 7, struct.pack('<3H', 0, 2, 1))
open(path, 'wb').write(blob)
PY
series boot0000 --keep-esp --args "$args"
n=$(count boot0000 'bare-metal Top-Down analysis'); loads=$(count boot0000 'BdsDxe: loading Boot')
echo "     Boot0000: $n baretop boot(s), $loads boot option load(s) by BDS, QEMU exit $rc"
check "Boot0000 \"baretop\" first in BootOrder: started as Boot0000, exactly 2 baretop boots ($n), then the shell ($rc)" \
  "has boot0000 'BdsDxe: starting Boot0000 \"baretop\"' && [ $n = 2 ] && has boot0000 'shell-marker: startup.nsh after baretop' && [ $rc = 0 ]"
check "Boot0000 boot 2: the reboot NOT taken and why, returned as not started (as the firmware logs it)" \
  "has boot0000 'then          reboot NOT taken: this boot did not measure' && has boot0000 'BdsDxe: failed to start Boot0000 \"baretop\" from PciRoot(0x0)/Pci(0x2,0x0)/\\EFI\\BOOT\\BOOTX64.EFI: Not started'"

}

part2() {
S=$out/series
rm -rf "${S:?}"; mkdir -p "$S"
series2() { python3 tests/suite/lib/boot_series.py "$@"; }
checks=(--check 'resets<=measurements' --check poweroff-on-measuring --check 'nvram-per-boot<=2'
        --check no-timeout)
# the OS stand-in's disk: its loader as \EFI\BOOT\BOOTX64.EFI, an entry
# OVMF makes after the ESP's in BootOrder
dd if=/dev/zero of="$S/osdisk.img" bs=1M count=8 status=none
mformat -i "$S/osdisk.img" -v OSDISK ::
mmd -i "$S/osdisk.img" ::/EFI ::/EFI/BOOT
mcopy -i "$S/osdisk.img" build/tests/fake-os-loader.efi ::/EFI/BOOT/BOOTX64.EFI
series2 --out "$S/once-shutdown" --power-ons 3 --timeout 60 "${checks[@]}" --check os-within=2 -- \
  --efi "$efi" --args "--run=once --then=shutdown --no-workloads" \
  --qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$S/osdisk.img"
os=$(python3 -c "import json,sys; print(','.join(str(b['power_on']) for b in json.load(open(sys.argv[1]))['boots'] if b['os']))" "$S/once-shutdown/series.json")
check "once-shutdown: the OS reached on power-ons 2 and 3 ($os), power-on 2 says why it did not power off" \
  "[ '$os' = 2,3 ] && grep -qF -- 'then          shutdown NOT taken: this boot did not measure' $S/once-shutdown/power-on-2.txt"
# --shutdown with no --run (every boot measures), from BootOrder: the
# power-off counts in the reset row, so the next power-on in a row measures
# and hands over to the OS (before: every power-on measured and powered off)
series2 --out "$S/none-shutdown" --power-ons 2 --timeout 60 "${checks[@]}" --check os-within=2 -- \
  --efi "$efi" --args "--shutdown --no-workloads" \
  --qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$S/osdisk.img"
os=$(python3 -c "import json,sys; print(','.join(str(b['power_on']) for b in json.load(open(sys.argv[1]))['boots'] if b['os']))" "$S/none-shutdown/series.json")
check "no --run, --shutdown: power-on 1 powered off, power-on 2 measured and reached the OS ($os), saying why" \
  "[ '$os' = 2 ] && grep -qF -- 'then          powering off (--then shutdown on a measuring boot' $S/none-shutdown/power-on-1.txt && grep -qF -- 'then          shutdown NOT taken: baretop reset or powered off the boot before' $S/none-shutdown/power-on-2.txt"

sdboot=/usr/lib/systemd/boot/efi/systemd-bootx64.efi
if [ ! -f "$sdboot" ]; then
  echo "skip systemd-boot series: $sdboot absent (Debian's systemd-boot-efi, tools/setup.sh)"
  return
fi
printf 'title OS stand-in\nefi /EFI/os/loader.efi\n' >"$S/os.conf"
printf 'title baretop\nefi /EFI/baretop/baretop.efi\noptions --run=once --no-workloads --quick\n' >"$S/baretop-once.conf"
printf 'title baretop\nefi /EFI/baretop/baretop.efi\noptions --no-workloads --quick\n' >"$S/baretop-none.conf"
printf 'default os.conf\ntimeout 0\neditor no\n' >"$S/loader-os.conf"
printf 'default baretop.conf\ntimeout 0\neditor no\n' >"$S/loader-baretop.conf"
printf 'echo shell-marker: BDS went on past systemd-boot\r\nreset -s\r\n' >"$S/startup.nsh"
# LoaderEntryOneShot (systemd's LOADER_GUID), NV+BS+RT as bootctl writes it
python3 - "$S/vars-oneshot.fd" <<'PY'
import sys
sys.path.insert(0, 'tests/suite/lib')
import ovmf_varstore as o
b = open('/usr/share/OVMF/OVMF_VARS_4M.fd', 'rb').read()
b = o.set_variable(b, 'LoaderEntryOneShot', '4a67b082-0a4c-41cf-b6c7-440b29bb8c4f', 7,
                   'baretop.conf\0'.encode('utf-16-le'))
open(sys.argv[1], 'wb').write(b)
PY
esp_sdb=(--efi "$sdboot" --add "$efi=/EFI/baretop/baretop.efi" --add build/tests/fake-os-loader.efi=/EFI/os/loader.efi
         --add "$S/os.conf=/loader/entries/os.conf" --add "$S/startup.nsh=/startup.nsh")
series2 --out "$S/sdboot-oneshot" --vars-from "$S/vars-oneshot.fd" --power-ons 1 --timeout 60 \
  --past-marker shell-marker: "${checks[@]}" --check os-within=2 -- "${esp_sdb[@]}" \
  --add "$S/loader-os.conf=/loader/loader.conf" --add "$S/baretop-once.conf=/loader/entries/baretop.conf"
check "systemd-boot one-shot: baretop knew its parent, reset back to it, the OS entry started after the reset" \
  "grep -q 'started by systemd-boot' $S/sdboot-oneshot/power-on-1.txt && grep -q '^then          resetting (back to the loader by a reset)' $S/sdboot-oneshot/power-on-1.txt"
series2 --out "$S/sdboot-default" --power-ons 1 --timeout 60 --past-marker shell-marker: "${checks[@]}" -- \
  "${esp_sdb[@]}" --add "$S/loader-baretop.conf=/loader/loader.conf" \
  --add "$S/baretop-none.conf=/loader/entries/baretop.conf"
check "systemd-boot with baretop its default: refused as such, the firmware went on past systemd-boot, no menu wait" \
  "grep -q 'whose default entry it is, never reaches the OS' $S/sdboot-default/power-on-1.txt && grep -q '^shell-marker: BDS went on past systemd-boot' $S/sdboot-default/power-on-1.txt"
}

# The two parts are independent (their own ESPs and stores): they run at
# once, one QEMU each, their lines printed in order and counted here.
part1 >"$out/part1.out" 2>&1 &
( part2 >"$out/part2.out" 2>&1 )
wait
for i in 1 2; do
  cat "$out/part$i.out"
  pass=$((pass + $(grep -c '^ok   ' "$out/part$i.out")))
  fail=$((fail + $(grep -c '^FAIL ' "$out/part$i.out")))
done

if bash tests/suite/lib/esp-results-schema.sh "$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "qemu reboot without loops, the OS reached: $pass passed, $fail failed ($(( $(date +%s) - t_start ))s)"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~75s
# --then reboot never loops (issue 31): the restart is taken only on a boot
# that measured, or when baretop was started one-shot (BootCurrent not in
# BootOrder: app/boot-policy.h bt_boot_restart_allowed); any other boot
# returns to the boot manager, which goes on with the next BootOrder entry
# (OVMF: the EFI shell, whose startup.nsh prints a marker and powers off).
# QEMU restarts on a reset here (qemu/run.sh --reboot: no -no-reboot) with
# persistent NVRAM (--vars), so a loop would go on until the timeout: one
# QEMU run is the whole series, and its boots are counted on the serial
# console (baretop's banner, OVMF's "BdsDxe: loading" lines).
#   removable media: baretop is \EFI\BOOT\BOOTX64.EFI, started by the
#     entry OVMF creates for the disk (in BootOrder), --run once --then reboot;
#   Boot0000: baretop's own boot option, first in BootOrder (written into
#     the varstore file by tests/suite/lib/ovmf_varstore.py, EDK2's format).
# Each: exactly 2 baretop boots (the measuring one rebooted, the next one
# handed over and said why), then the shell.
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

# --- removable media
rm -rf "${out:?}/media"; mkdir -p "$out/media"
series media --args "$args"
n=$(count media 'bare-metal Top-Down analysis'); loads=$(count media 'BdsDxe: loading Boot')
echo "     removable media: $n baretop boot(s), $loads boot option load(s) by BDS, QEMU exit $rc"
check "removable media, --run once --then reboot: exactly 2 baretop boots ($n), then the shell, QEMU powered off ($rc)" \
  "[ $n = 2 ] && has media 'shell-marker: startup.nsh after baretop' && [ $rc = 0 ]"
check "boot 1 measured and rebooted (this boot measured)" \
  "has media 'run=once: the first run' && has media 'then          rebooting: this boot measured'"
check "boot 2 did not measure: the reboot NOT taken (a boot that does not measure never resets), returned as not started" \
  "has media 'run=once: done already' && has media 'then          reboot NOT taken: this boot did not measure, and a boot that does not never resets' && has media 'returning to the boot manager as \"not started\"'"
check "the results file of boot 1 records the reboot taken, and why later boots will not take it" \
  "python3 -c \"import json,sys; b=json.load(open('$out/media/esp/baretop/results/000001.json'))['result']['boot']['reboot']; sys.exit(0 if b['taken'] and 'a boot that does not will not restart' in b['why'] else 1)\""

# --- baretop as Boot0000, first in BootOrder
rm -rf "${out:?}/boot0000"; mkdir -p "$out/boot0000"
# Boot 0: the firmware makes its own entries in a fresh store (ended as
# soon as BDS starts one: they are in the store by then). baretop only
# prints its version there: a run the kill cuts short would be recorded
# as one that never ended (a power cut), and the next boot would hand over.
bash qemu/run.sh --efi "$efi" --smp 1 --out "$out/boot0000" --vars "$out/boot0000/vars.fd" \
  --timeout 60 --until 'BdsDxe: starting Boot' --args "--version" >/dev/null \
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
check "Boot0000 boot 2: reboot NOT taken (it did not measure)" \
  "has boot0000 'reboot NOT taken: this boot did not measure, and a boot that does not never resets'"

if bash tests/suite/lib/esp-results-schema.sh "$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "qemu reboot without loops: $pass passed, $fail failed ($(( $(date +%s) - t_start ))s)"
[ "$fail" -eq 0 ]

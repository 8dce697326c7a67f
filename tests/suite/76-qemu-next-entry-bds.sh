#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~110s
# --then next-boot-entry starts the next entry as EDK2's boot manager does
# (efi/boot-entry.c, after BmBoot.c EfiBootManagerBoot), in QEMU + OVMF
# with persistent NVRAM (qemu/run.sh --vars) and restarts allowed
# (--reboot: an extra reset would show as an extra boot on the console).
# A second disk holds the stand-in loader (tests/efi/fake-os-loader.c: it
# prints the load options it got and BootCurrent, and powers off) as
# \EFI\BOOT\BOOTX64.EFI; OVMF creates a boot option for it (a device-only
# path, its optional data the 16-byte auto-create GUID: both read from the
# varstore file by tests/suite/lib/boot_options.py, from the UEFI spec).
#  - BootOrder [baretop, an entry whose file is missing, the shell], three
#    boots in one QEMU run (the shell's startup.nsh resets): the firmware
#    itself (baretop returning, --then return) goes from the missing entry
#    to the shell; next-boot-entry must reach the same entry in each boot,
#    with no BootNext and no extra reset;
#  - BootOrder [baretop, the second disk's entry]: the loader gets 0 bytes
#    of load options (BDS withholds the GUID); BootCurrent stays baretop's
#    entry (UEFI 2.10 3.3: read-only for all but the boot manager).
# Under Secure Boot (the loader unsigned: refused, skipped with no BootNext
# and no reset) it is tests/suite/58-qemu-secure-boot.sh's, which boots
# the Secure Boot firmware already.
set -uo pipefail

efi=build/baretop.efi
out=build/qemu/next-entry-bds
fail=0
pass=0
t_start=$(date +%s)
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
bo() { python3 tests/suite/lib/boot_options.py "$@"; }

mkdir -p "$out"
make -s -j2 efi tests >/dev/null || { echo "FAIL build"; exit 1; }

disk=$out/second-disk.img
rm -f "$disk"; dd if=/dev/zero of="$disk" bs=1M count=8 status=none
mformat -i "$disk" -v SECOND ::
mmd -i "$disk" ::/EFI ::/EFI/BOOT
mcopy -i "$disk" build/tests/fake-os-loader.efi ::/EFI/BOOT/BOOTX64.EFI
disk_args=(--qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$disk")

# boot S N STARTUP-NSH-TEXT [qemu/run.sh options...]: one QEMU run (restarts allowed), bounded
boot() {
  local s=$1 n=$2; shift 2
  printf "$1" >"$out/$s/startup.nsh"; shift
  bash qemu/run.sh --smp 1 --out "$out/$s" --vars "$out/$s/vars.fd" --reboot --keep-esp \
    --no-unattended --timeout "${TMO:-80}" --add "$out/$s/startup.nsh=/startup.nsh" "${disk_args[@]}" "$@" \
    >/dev/null 2>"$out/$s/boot$n.err"
  rc=$?
  cp "$out/$s/console.txt" "$out/$s/boot$n.txt"
}
has() { grep -qF -- "$3" "$out/$1/boot$2.txt"; }
cnt() { grep -cF -- "$3" "$out/$1/boot$2.txt"; }
banner='Top-Down analysis'
off='echo shell-marker\r\nreset -s\r\n'
# boot 0 of a store: OVMF makes its entries; the OS stand-in in baretop's
# place powers off (baretop, stopped there mid-run, would leave a state)
boot0() { boot "$1" 0 "$off" "${@:2}" --efi build/tests/fake-os-loader.efi; }
guid_hex=4eac0881119f594d850ee21a522c59b2   # 8108ac4e-9f11-4d59-850e-e21a522c59b2 as stored
# entry S DESCRIPTION-REGEX: the number of a BootOrder entry
entry() { bo "$out/$1/vars.fd" list | awk -v d="$2" '$0 ~ d {print $1; exit}'; }

s=nbe; rm -rf "${out:?}/$s"; mkdir -p "$out/$s"
boot0 $s
bo "$out/$s/vars.fd" list >"$out/$s/entries.txt"
second=$(awk -v g=$guid_hex '$1 != "0001" && $3 == g {print $1; exit}' "$out/$s/entries.txt")
shell=$(entry $s 'EFI Internal Shell')
check "OVMF made Boot$second for the second disk (optional data: the auto-create GUID) and Boot$shell the shell" \
  "[ -n '$second' ] && [ -n '$shell' ] && grep -q '^0001 00000001 $guid_hex ' $out/$s/entries.txt"

# --- BootOrder [baretop, missing file, shell]
bo "$out/$s/vars.fd" add 5 'missing file' 'file:\EFI\gone\missing.efi'
bo "$out/$s/vars.fd" order "1,5,$shell"
boot $s 1 "$off" --efi "$efi" --args "--then=return --no-workloads"
fw=$(grep -o 'BdsDxe: starting Boot[0-9A-F]*' "$out/$s/boot1.txt" | sed -n 2p)
check "the firmware itself (baretop returns): Boot0005 fails to load, then '$fw' (the shell)" \
  "has $s 1 'BdsDxe: failed to load Boot0005' && [ '$fw' = 'BdsDxe: starting Boot$shell' ] && has $s 1 'shell-marker'"
# three boots in one run: the shell resets (a cold reset, QEMU restarts).
# Boot 1 above (no --run, started by the boot manager) counted a run in
# BaretopState; --run once starts afresh without it, as after
# boot/install.sh --remove.
python3 - "$out/$s/vars.fd" <<'PY'
import sys
sys.path.insert(0, 'tests/suite/lib')
import ovmf_varstore as o
b = open(sys.argv[1], 'rb').read()
open(sys.argv[1], 'wb').write(o.delete_variable(b, 'BaretopState', '6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93'))
PY
TMO=150 boot $s 2 'echo shell-marker\r\nreset -c\r\n' --efi "$efi" --until '^shell-marker' --until-n 3 \
  --args "--run=once --then=next-boot-entry --no-workloads"
n=$(cnt $s 2 "$banner"); m=$(grep -c '^shell-marker' "$out/$s/boot2.txt"); sk=$(cnt $s 2 'Boot0005 cannot be loaded from its path as the boot manager expands it: skipped, no BootNext')
st=$(cnt $s 2 "next-boot-entry: Boot$shell \"EFI Internal Shell\"")
echo "     three boots: $n baretop start(s), Boot0005 skipped $sk time(s), the shell started by baretop $st time(s), its marker $m time(s)"
check "next-boot-entry over three boots: each skipped Boot0005 and started the shell, as the firmware does; 3 baretop boots, no BootNext" \
  "[ $n = 3 ] && [ $sk = 3 ] && [ $st = 3 ] && [ $m = 3 ] && ! has $s 2 'BootNext=' && [ \$(cnt $s 2 'BdsDxe: loading Boot0001') = 3 ] && [ $rc = 0 ]"
check "boot 1 of them measured, boots 2 and 3 did not (run once)" \
  "[ \$(cnt $s 2 'run=once: the first run') = 1 ] && [ \$(cnt $s 2 'run=once: done already') = 2 ]"

# --- BootOrder [baretop, the second disk's entry]: load options and BootCurrent
bo "$out/$s/vars.fd" order "1,$second"
boot $s 3 "$off" --efi "$efi" --args "--then=next-boot-entry --no-workloads"
check "Boot$second, a device-only path, started from its \\EFI\\BOOT\\BOOTX64.EFI in the same boot" \
  "has $s 3 'next-boot-entry: Boot$second' && has $s 3 'a device-only path' && has $s 3 'fake-os-loader: started' && [ \$(cnt $s 3 '$banner') = 1 ]"
check "the loader got LoadOptionsSize=0 (the GUID withheld, as BDS does); BootCurrent left as baretop's Boot0001 (read-only for all but the boot manager, UEFI 2.10 3.3)" \
  "has $s 3 'fake-os-loader: LoadOptionsSize=0' && has $s 3 'fake-os-loader: BootCurrent=Boot0001'"

if bash tests/suite/lib/esp-results-schema.sh "$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "qemu next entry as BDS: $pass passed, $fail failed ($(( $(date +%s) - t_start ))s)"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~60s
# The hand-over after an unattended run, in QEMU + OVMF, with persistent
# NVRAM (qemu/run.sh --vars) where entries matter.
#
# Return: a run with no end action, started by the boot manager from the
# removable-media path, must let the boot manager go on with the next
# BootOrder entry (OVMF: the EFI shell, whose startup.nsh prints a marker),
# never start the setup menu (UiApp, which EDK2's BDS starts after a boot
# option returned EFI_SUCCESS); the same under --run once on the boot that
# does not measure. Started from the shell, baretop keeps its real status.
#
# --then next-boot-entry: boot options written into the varstore file
# (tests/suite/lib/ovmf_varstore.py set_variable, EDK2's record format):
# after baretop's entry, one whose file is missing, one of category APP, one
# short-form HD() path to a loader on a second, GPT-partitioned disk, then
# the shell. The missing one is skipped with no BootNext (the firmware fails
# to load it the same way, BmExpandFileDevicePath finds no file system with
# it: no reset helps); the APP entry is skipped; the HD() entry is started
# in the same boot. Boots are counted: QEMU runs with -no-reboot, so each
# reset ends one qemu/run.sh.
set -uo pipefail

efi=build/baretop.efi
out=build/qemu/boot-handover
guid=6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93
gvar=8be4df61-93ca-11d2-aa0d-00e098032b8c
fail=0
pass=0
t_start=$(date +%s)
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# boot SERIES N [qemu/run.sh options...]
boot() {
  local s=$1 n=$2; shift 2
  local keep=--keep-esp
  [ "$n" = 1 ] && { rm -rf "${out:?}/$s"; mkdir -p "$out/$s"; keep=""; }
  bash qemu/run.sh --efi "$efi" --smp 1 --out "$out/$s" --vars "$out/$s/vars.fd" $keep --timeout 90 \
    --add build/tests/fake-os-loader.efi=/EFI/os/loader.efi "$@" >/dev/null 2>"$out/$s/boot$n.err"
  rc=$?
  cp "$out/$s/console.txt" "$out/$s/boot$n.txt"
}
has() { grep -qF -- "$3" "$out/$1/boot$2.txt"; }
cnt() { grep -cF -- "$3" "$out/$1/boot$2.txt"; }
# UiApp's front page on the serial console: its menu entries
menu() { grep -qE 'starting Boot0000 "UiApp"|Device Manager|Boot Maintenance Manager' "$out/$1/boot$2.txt"; }

mkdir -p "$out"
make -s -j2 efi tests >/dev/null || { echo "FAIL build"; exit 1; }
rm -f "$out"/part[12].end "$out"/part[12].out

part1() {
# --- Finding 1: the return hand-over
# startup.nsh: a marker, then baretop started from the shell (an
# interactive start: its real status, 0), the shell's %lasterror%, off.
printf 'echo shell-marker: startup.nsh after baretop\r\nfs0:\\EFI\\BOOT\\BOOTX64.EFI --no-config --no-workloads --quick\r\necho shell-lasterror=%%lasterror%%\r\nreset -s\r\n' \
  >"$out/startup.nsh"
boot ret 1 --no-unattended --add "$out/startup.nsh=/startup.nsh" --args "--no-workloads"
check "no end action, from the removable-media entry: ends with 'done exit status 0'" \
  "has ret 1 'done          exit status 0'"
check "... returns as 'not started' and the boot manager goes on: the shell's startup.nsh ran" \
  "has ret 1 'returning to the boot manager as \"not started\"' && has ret 1 'BdsDxe: failed to start Boot0001 \"UEFI Non-Block Boot Device\" from PciRoot(0x0)/Pci(0x2,0x0): Not started' && has ret 1 'shell-marker: startup.nsh after baretop'"
check "... never the setup menu (UiApp), no timeout (qemu/run.sh $rc)" "! menu ret 1 && [ $rc = 0 ]"
check "started from the shell: baretop keeps its real status (lasterror 0), then reset -s" \
  "[ \$(cnt ret 1 'bare-metal Top-Down analysis') = 2 ] && grep -qiE 'shell-lasterror=0x0*\\b|shell-lasterror=0\\b' $out/ret/boot1.txt"

boot once 1 --no-unattended --add "$out/startup.nsh=/startup.nsh" --args "--run=once --no-workloads"
check "--run once, boot 1 (measures, no end action): the shell's marker, no menu" \
  "has once 1 'run=once: the first run' && has once 1 'shell-marker' && ! menu once 1 && [ $rc = 0 ]"
boot once 2 --no-unattended --add "$out/startup.nsh=/startup.nsh" --args "--run=once --no-workloads"
check "--run once, boot 2 (does not measure): the shell's marker, no menu" \
  "! has once 2 'run=once: the first run' && has once 2 'handing over without measuring' && has once 2 'shell-marker' && ! menu once 2 && [ $rc = 0 ]"
# Boot 1's startup.nsh ran baretop from the shell after the measuring run
# (no --run, its own results file): that must not make the measured run
# read as hung on boot 2.
check "--run once, boot 2: run 1 known to have ended ok (run=once: done already), not hung, after a shell run wrote results in between" \
  "has once 2 'run=once: done already' && ! has once 2 'recorded as hung'"
}

part2() {
# --- Finding 2: --then next-boot-entry with boot options in the varstore
s=nbe
# The second disk: GPT, one partition with a known GUID, the loader on it.
disk=$out/loader-disk.img
partuuid=5b1e0c2a-7d44-4f0e-9c1b-2a6f3e8d9b11
rm -f "$disk"; truncate -s 16M "$disk"
printf 'label: gpt\nstart=2048, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, uuid=%s\n' "$partuuid" |
  sfdisk --quiet "$disk"
read -r pstart psize < <(sfdisk --json "$disk" | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitiontable"]["partitions"][0]; print(p["start"], p["size"])')
mformat -i "$disk@@$((pstart * 512))" -T "$psize" -h 64 -s 32 -v LOADER ::
mmd -i "$disk@@$((pstart * 512))" ::/EFI ::/EFI/os2
mcopy -i "$disk@@$((pstart * 512))" build/tests/fake-os-loader.efi ::/EFI/os2/loader.efi
disk_args=(--qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$disk")
nbe_args="--run=every-boot --no-workloads --then=next-boot-entry"

# Boot 0: the firmware creates its own entries (Boot0000 UiApp, Boot0001 the
# ESP's disk, Boot0002 the shell) in a fresh store; baretop powers off.
boot $s 1 --args "--no-workloads"
python3 - "$out/$s/vars.fd" "$gvar" "$partuuid" "$pstart" "$psize" <<'PY' || bad "writing the boot options"
import struct, sys, uuid
sys.path.insert(0, 'tests/suite/lib')
import ovmf_varstore as o
path, gvar, partuuid, pstart, psize = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
blob = open(path, 'rb').read()
order = list(struct.unpack('<%dH' % (len(o.find(blob, 'BootOrder', gvar)) // 2), o.find(blob, 'BootOrder', gvar)))
assert order[:3] == [0, 1, 2], order
def fnode(p):  # Media / File Path, UEFI 10.3.5.4
    b = (p + '\0').encode('utf-16-le'); return struct.pack('<BBH', 4, 4, 4 + len(b)) + b
def hd(num, start, size, sig):  # Media / Hard Drive, UEFI 10.3.5.1: GPT (2), GUID signature (2)
    return struct.pack('<BBHIQQ16sBB', 4, 1, 42, num, start, size, uuid.UUID(sig).bytes_le, 2, 2)
END = bytes([0x7f, 0xff, 4, 0])
def option(attr, desc, path):  # EFI_LOAD_OPTION, UEFI 3.1.3
    d = (desc + '\0').encode('utf-16-le')
    return struct.pack('<IH', attr, len(path)) + d + path
entries = {
    5: option(1, 'missing file', fnode('\\EFI\\gone\\missing.efi') + END),
    6: option(1 | 0x100, 'an APP entry', hd(1, pstart, psize, partuuid) + fnode('\\EFI\\os2\\loader.efi') + END),
    7: option(1, 'short HD loader', hd(1, pstart, psize, partuuid) + fnode('\\EFI\\os2\\loader.efi') + END),
}
for n, data in entries.items():
    blob = o.set_variable(blob, 'Boot%04X' % n, gvar, 7, data)
blob = o.set_variable(blob, 'BootOrder', gvar, 7, struct.pack('<6H', 1, 5, 6, 7, 2, 0))
open(path, 'wb').write(blob)
PY
bootnexts=0
for n in 2 3 4; do
  boot $s $n --no-unattended "${disk_args[@]}" --args "$nbe_args"
  bootnexts=$((bootnexts + $(cnt $s $n 'BootNext=Boot')))
done
check "boot 1 (first with the entries): Boot0005's file is missing: skipped, no BootNext, no reset" \
  "has $s 2 'Boot0005 \"missing file\"' && has $s 2 'Boot0005 cannot be loaded from its path as the boot manager expands it: skipped, no BootNext' && ! has $s 2 'BootNext=Boot'"
check "boot 1: the APP-category entry is skipped" "has $s 2 'Boot0006 \"an APP entry\" skipped: category APP'"
check "boot 1: the short-form HD() entry is expanded and started in the same boot; BootCurrent left as baretop's Boot0001 (read-only for all but the boot manager, UEFI 2.10 3.3)" \
  "has $s 2 'short-form HD() path expanded' && has $s 2 'fake-os-loader: started' && has $s 2 'FilePath=\\EFI\\os2\\loader.efi' && has $s 2 'DeviceHandle has a file system: yes' && has $s 2 'fake-os-loader: BootCurrent=Boot0001'"
check "boots 2 and 3: the same, the loader in one boot each" \
  "has $s 3 'fake-os-loader: started' && has $s 4 'fake-os-loader: started' && ! has $s 3 'BootNext=Boot' && ! has $s 4 'BootNext=Boot'"
check "three boots, no BootNext attempt in all (the firmware would not start Boot0005 either): $bootnexts" \
  "[ $bootnexts = 0 ]"
}

# The two parts are independent (each its own ESPs, varstores and disks):
# they run at once, one QEMU each (--smp 1) on a 2-core machine; their
# lines are printed in order and counted here. `73-qemu-boot-handover.sh
# nbe` runs the second part alone.
[ "${1:-}" = nbe ] || { part1 >"$out/part1.out" 2>&1; echo done >"$out/part1.end"; } &
( part2 >"$out/part2.out" 2>&1; echo done >"$out/part2.end" )
wait
for i in 1 2; do
  [ "$i" = 1 ] && [ "${1:-}" = nbe ] && continue
  cat "$out/part$i.out"
  pass=$((pass + $(grep -c '^ok   ' "$out/part$i.out")))
  fail=$((fail + $(grep -c '^FAIL ' "$out/part$i.out")))
  [ -s "$out/part$i.end" ] || bad "part $i ended early"
done

if bash tests/suite/lib/esp-results-schema.sh "$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "qemu boot hand-over: $pass passed, $fail failed ($(( $(date +%s) - t_start ))s)"
[ "$fail" -eq 0 ]

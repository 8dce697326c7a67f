#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~14s
# The USB-stick image from boot/make-usb-image.sh is a GPT disk whose EFI
# System Partition OVMF boots by itself (no boot entry), and baretop writes
# its results onto it.
set -uo pipefail
out=build/qemu/usb
mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }
bash boot/make-usb-image.sh "$out/usb.img" --size-mib 64 \
  --args "--shutdown --qemu-exit --quick --no-workloads" >/dev/null || { echo "FAIL make-usb-image"; exit 1; }
fail=0
sfdisk -d "$out/usb.img" | grep -q 'type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B' \
  && echo "ok   GPT with an EFI System Partition" || { echo "FAIL no EFI System Partition"; fail=1; }
timeout 60 qemu-system-x86_64 -nodefaults -nographic -no-reboot -serial stdio -m 512 \
  -bios /usr/share/ovmf/OVMF.fd -drive if=virtio,format=raw,file="$out/usb.img" \
  -device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null >"$out/serial.log" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && echo "ok   the image boots by itself and baretop powers off (exit 0)" || { echo "FAIL boot: exit $rc"; fail=1; }
mtype -i "$out/usb.img@@1M" ::/baretop/results/000001.json 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["format"] == "baretop-results" and r["platform"]["program_path"] == "\\EFI\\BOOT\\BOOTX64.EFI"
' && echo "ok   results written to \\baretop\\results on the stick" || { echo "FAIL no results on the stick"; fail=1; }
exit $fail

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
# shim loads only images with a well-formed .sbat section (SBAT.md): read it
# back as objcopy sees it and check it against shim's parsing rules.
# The clang image too (the suite has built it already; standalone, build it).
images=build/baretop.efi
if command -v clang >/dev/null; then
  make -s -j"$(nproc)" CC=clang efi >/dev/null || { echo "FAIL clang build"; exit 1; }
  images="$images build/baretop-clang.efi"
fi
for efi in $images; do
  objcopy -O binary --only-section=.sbat "$efi" "$out/sbat.bin" 2>/dev/null && [ -s "$out/sbat.bin" ] \
    || { echo "FAIL $efi has no .sbat section (shim: SBAT is mandatory)"; fail=1; continue; }
  python3 tests/suite/lib/check-sbat.py "$efi" "$out/sbat.bin" app/version.h || fail=1
done
# Signed with a throwaway key, sbsign finds no gap in the PE layout (its
# "gaps between PE/COFF sections?": bytes after the last section, such as a
# COFF symbol table, that the Authenticode hash would not cover) and its
# digest is pesign's (a second implementation of the Authenticode hash).
# The test applications too: the Secure Boot step signs them as -x workloads.
if command -v sbsign >/dev/null && command -v openssl >/dev/null; then
  openssl req -new -x509 -newkey rsa:2048 -nodes -subj "/CN=baretop test/" -days 1 \
    -keyout "$out/test.key" -out "$out/test.crt" >/dev/null 2>&1
  for efi in $images build/tests/*.efi; do
    sbsign --key "$out/test.key" --cert "$out/test.crt" --output "$out/signed-one.efi" "$efi" \
      >"$out/sbsign.log" 2>&1 && sbverify --cert "$out/test.crt" "$out/signed-one.efi" >>"$out/sbsign.log" 2>&1 \
      && ! grep -qi warning "$out/sbsign.log" \
      && echo "ok   $efi: sbsign signs and sbverify accepts with no warning" \
      || { echo "FAIL $efi: sbsign/sbverify: $(grep -m1 -i 'warning\|error\|fail' "$out/sbsign.log")"; fail=1; }
    [ "$efi" = build/baretop.efi ] && cp "$out/signed-one.efi" "$out/signed.efi"
  done
  if command -v pesign >/dev/null; then
    digest=$(openssl asn1parse -inform DER -in <(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
pe = struct.unpack_from("<I", d, 0x3C)[0]
va, sz = struct.unpack_from("<II", d, pe + 24 + 112 + 8 * 4)   # PE32+ certificate table
sys.stdout.buffer.write(d[va + 8:va + sz])' "$out/signed.efi") 2>/dev/null |
      awk -F: '/OCTET STRING/ && length($NF) == 64 { print tolower($NF); exit }')
    [ -n "$digest" ] && [ "$(pesign -h -i build/baretop.efi | awk '{print $2}')" = "$digest" ] \
      && echo "ok   pesign's Authenticode hash is the digest sbsign signed" \
      || { echo "FAIL pesign's hash differs from sbsign's digest"; fail=1; }
  else
    echo "note pesign not installed: second hash check skipped"
  fi
else
  echo "note sbsign or openssl missing: signing check skipped"
fi
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

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
# The URL each build was given (the Makefile's SBAT_URL stamp; empty: none).
for efi in $images; do
  objcopy -O binary --only-section=.sbat "$efi" "$out/sbat.bin" 2>/dev/null && [ -s "$out/sbat.bin" ] \
    || { echo "FAIL $efi has no .sbat section (shim: SBAT is mandatory)"; fail=1; continue; }
  stamp=build/efi/sbat-url
  [ "$efi" = build/baretop-clang.efi ] && stamp=build/efi-clang/sbat-url
  python3 tests/suite/lib/check-sbat.py "$efi" "$out/sbat.bin" app/version.h "$(cat "$stamp" 2>/dev/null)" || fail=1
done
python3 tests/suite/lib/check-sbat.py build/baretop.efi "$out/sbat.bin" app/version.h https://other.example.net/ \
  >"$out/neg.txt" 2>&1 && { echo "FAIL check-sbat.py accepts a vendor_url that is not the build's"; fail=1; } ||
  echo "ok   check-sbat.py refuses a vendor_url other than the build's: $(grep -m1 -o "vendor_url.*" "$out/neg.txt")"

# NX_COMPAT and W^X (tools/pe-nx-compat.sh sets the bit at the link, after
# checking the sections): every image read back by an independent checker
# of the PE headers, then faults planted in copies, each of which it must
# catch (and the build's step must refuse a writable, executable section).
python3 tests/suite/lib/check-pe-nx.py $images build/tests/*.efi || fail=1
python3 - build/baretop.efi "$out" <<'PY'
import struct, sys
src, out = sys.argv[1], sys.argv[2]
img = bytearray(open(src, 'rb').read())
pe = struct.unpack_from('<I', img, 0x3C)[0]
opt = pe + 24
optsz = struct.unpack_from('<H', img, pe + 20)[0]
nsec = struct.unpack_from('<H', img, pe + 6)[0]
sec = {bytes(img[opt + optsz + 40 * i:opt + optsz + 40 * i + 8]).rstrip(b'\0').decode(): opt + optsz + 40 * i
       for i in range(nsec)}
def save(name, b):
    open(f'{out}/{name}.efi', 'wb').write(b)
b = bytearray(img); ch = struct.unpack_from('<I', b, sec['.text'] + 36)[0]
struct.pack_into('<I', b, sec['.text'] + 36, ch | 0x80000000); save('plant-wx-text', b)
b = bytearray(img); struct.pack_into('<H', b, opt + 70, struct.unpack_from('<H', b, opt + 70)[0] & ~0x100)
save('plant-no-nx', b)
# the first relocation's target moved into .text: the first entry of the
# packed .relr (an offset), or of .rela in an image linked without RELR
b = bytearray(img); rptr = struct.unpack_from('<I', b, sec['.relr' if '.relr' in sec else '.rela'] + 20)[0]
text_va = struct.unpack_from('<I', b, sec['.text'] + 12)[0]
struct.pack_into('<Q', b, rptr, text_va + 16); save('plant-reloc-into-text', b)
b = bytearray(img); struct.pack_into('<I', b, opt + 64, struct.unpack_from('<I', b, opt + 64)[0] ^ 1)
save('plant-checksum', b)
PY
for p in wx-text:'writable and executable' no-nx:'without NX_COMPAT' reloc-into-text:'not writable' \
         checksum:'is not the PE/COFF sum'; do
  f=$out/plant-${p%%:*}.efi want=${p#*:}
  r=$(python3 tests/suite/lib/check-pe-nx.py "$f")
  grep -q "^FAIL.*$want" <<<"$r" && echo "ok   check-pe-nx.py catches plant-${p%%:*}: $want" ||
    { echo "FAIL check-pe-nx.py misses plant-${p%%:*}: $r"; fail=1; }
done
cp "$out/plant-wx-text.efi" "$out/plant-wx-text-build.efi"
sh tools/pe-nx-compat.sh "$out/plant-wx-text-build.efi" 2>"$out/neg.txt" &&
  { echo "FAIL tools/pe-nx-compat.sh marks an image with a writable, executable .text"; fail=1; } ||
  echo "ok   tools/pe-nx-compat.sh refuses it: $(cat "$out/neg.txt")"
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

#!/bin/sh
# SPDX-License-Identifier: MIT
# Marks a PE32+ EFI image (objcopy's output) IMAGE_DLLCHARACTERISTICS_NX_COMPAT,
# after checking that it keeps the promise the bit makes:
#
#   tools/pe-nx-compat.sh IMAGE.efi
#
# The bit says the image runs where the firmware maps its data no-execute
# and its code read-only (Microsoft's UEFI CA memory mitigation
# requirements, 2022; shim 16.1 refuses an image without it when its
# MokPolicy asks for NX, pe-relocate.c read_header), so it is set only
# where, as EDK2's GenFw sets it (BaseTools GenFw: 64-bit PE, section
# alignment a multiple of 4 KiB, no section both writable and executable):
#   - the optional header is PE32+ (magic 0x20b);
#   - SectionAlignment is a multiple of 4096: page attributes can then
#     differ per section;
#   - no section has both IMAGE_SCN_MEM_WRITE (0x80000000) and
#     IMAGE_SCN_MEM_EXECUTE (0x20000000).
# What the code does at run time (no self-modifying code, generated code
# made read-only before it runs: efi/wl-env.c) is the other half of the
# promise. The image's CheckSum is recomputed (PE/COFF: the 16-bit
# one's-complement-style sum of the file with the field itself as zero,
# plus the file's length); objcopy's own value is checked against the same
# computation first, so a wrong computation fails the build instead of
# writing a wrong sum. Exit status 1 with the reason when a check fails.
set -eu
img=$1
die() { echo "pe-nx-compat: $img: $*" >&2; exit 1; }

u16() { od -An -v -tu2 -j "$1" -N2 "$img" | tr -d ' '; }
u32() { od -An -v -tu4 -j "$1" -N4 "$img" | tr -d ' '; }
# LE bytes of a value as printf octal escapes
le() { v=$1 n=$2 out=""; while [ "$n" -gt 0 ]; do
  out="$out\\$(printf %03o $((v & 255)))"; v=$((v >> 8)); n=$((n - 1)); done; printf "$out"; }
put() { le "$2" "$3" | dd of="$img" bs=1 seek="$1" conv=notrunc status=none; }
# PE/COFF checksum of the file with the 4 bytes at $1 taken as zero
checksum() {
  size=$(stat -c %s "$img")
  od -An -v -tu2 "$img" | awk -v skip=$(($1 / 2)) -v size="$size" '
    { for (i = 1; i <= NF; i++) { if (w != skip && w != skip + 1) { s += $i; s = (s % 65536) + int(s / 65536) } w++ } }
    END { if (size % 2) { } printf "%d\n", (s % 65536) + size }'
}

[ "$(od -An -c -N2 "$img" | tr -d ' ')" = MZ ] || die "no MZ header"
pe=$(u32 60)
[ "$(od -An -c -j "$pe" -N4 "$img" | tr -d ' ')" = 'PE\0\0' ] || die "no PE signature at $pe"
nsec=$(u16 $((pe + 6)))
optsz=$(u16 $((pe + 20)))
opt=$((pe + 24))
[ "$(u16 "$opt")" = 523 ] || die "not PE32+ (optional header magic $(u16 "$opt"), not 0x20b)"
salign=$(u32 $((opt + 32)))
[ $((salign % 4096)) = 0 ] || die "SectionAlignment $salign is not a multiple of 4096"
i=0
while [ "$i" -lt "$nsec" ]; do
  s=$((opt + optsz + 40 * i))
  ch=$(u32 $((s + 36)))
  if [ $((ch & 0x80000000)) != 0 ] && [ $((ch & 0x20000000)) != 0 ]; then
    die "section $i ($(dd if="$img" bs=1 skip="$s" count=8 status=none | tr -d '\0')) is writable and executable"
  fi
  i=$((i + 1))
done
sum_at=$((opt + 64))
[ "$(checksum $sum_at)" = "$(u32 $sum_at)" ] ||
  die "objcopy's CheckSum $(u32 $sum_at) is not the PE/COFF sum $(checksum $sum_at) computed here"
dll=$(u16 $((opt + 70)))
put $((opt + 70)) $((dll | 0x100)) 2
put $sum_at "$(checksum $sum_at)" 4

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds a disk image to write to a USB stick (dd if=IMG of=/dev/sdX bs=4M):
# a GPT disk with one EFI System Partition holding baretop as the removable-
# media boot path \EFI\BOOT\BOOTX64.EFI and its options in baretop.cfg next
# to it. Firmware boots it without any boot entry; results are written to
# \baretop\results on the stick.
#
#   boot/make-usb-image.sh OUT.img [--efi build/baretop.efi] [--size-mib 256]
#                                  [--args "BARETOP OPTIONS"] [--add FILE=ESP/PATH]...
#
# Default options: --shutdown (an unattended run ends by powering off).
set -euo pipefail

out=${1:-}
[ -n "$out" ] && [ "${out#-}" = "$out" ] || { sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift
efi=build/baretop.efi
size=256
args="--shutdown"
adds=()
while [ $# -gt 0 ]; do
  case "$1" in
    --efi) efi=$2; shift 2 ;;
    --size-mib) size=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    --add) adds+=("$2"); shift 2 ;;
    *) echo "make-usb-image: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -f "$efi" ] || { echo "make-usb-image: $efi not found (run make)" >&2; exit 1; }
[ "$size" -ge 64 ] || { echo "make-usb-image: --size-mib must be at least 64" >&2; exit 2; }

# Partition 1 from sector 2048 (1 MiB) to the end, type "EFI System".
rm -f "$out"
truncate -s "${size}M" "$out"
printf 'label: gpt\nstart=2048, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="baretop ESP"\n' |
  sfdisk --quiet "$out"
part="$out@@1M"
mformat -i "$part" -T $(( (size - 2) * 2048 )) -h 64 -s 32 -v BARETOP ::
mmd -i "$part" ::/EFI ::/EFI/BOOT
mcopy -i "$part" "$efi" ::/EFI/BOOT/BOOTX64.EFI
cfg=$(mktemp)
printf '# baretop options (see baretop.efi --help); written by boot/make-usb-image.sh\n%s\n' "$args" >"$cfg"
mcopy -i "$part" "$cfg" ::/EFI/BOOT/baretop.cfg
rm -f "$cfg"
for a in "${adds[@]+"${adds[@]}"}"; do
  src=${a%%=*}; dst=${a#*=}
  p=""; IFS=/ read -ra parts <<<"$(dirname "${dst#/}")"
  for d in "${parts[@]}"; do
    [ -n "$d" ] && [ "$d" != . ] || continue
    p="$p/$d"; mmd -i "$part" "::$p" 2>/dev/null || true
  done
  mcopy -o -i "$part" "$src" "::$dst"
done
echo "make-usb-image: $out (${size} MiB, GPT + ESP); write it with: dd if=$out of=/dev/sdX bs=4M conv=fsync"

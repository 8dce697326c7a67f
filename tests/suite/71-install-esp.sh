#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# boot/install.sh against a real FAT file system: a FAT16 image made by
# mkfs.vfat and mounted with fusefat (this sandbox's kernel has no vfat, so
# `mount -o loop` cannot mount it; fusefat is the same FAT driven through
# FUSE, and install.sh sees a mounted FAT file system either way). The
# mount's source is named /dev/nvme0n1p1 and a sysfs tree of that disk is
# given (BT_SYSFS), so install.sh finds disk and partition the way it does
# on a machine. Checked:
#   - efivarfs not writable: --dry-run by default; the exact efibootmgr
#     commands printed; the files copied (checksums equal to the sources);
#   - --remove: the ESP's file listing and checksums equal those before the
#     install, on an ESP with an \EFI folder and on one without;
#   - the NVRAM path with efivarfs "writable" (BT_EFIVARS, a temporary
#     folder) and an efibootmgr STAND-IN first on PATH that records its
#     arguments and lists the entries created: --create-only, --bootnext
#     with the new entry's number, --remove deleting that number, the
#     BootNext left pointing at it and the BaretopState variable (efivarfs
#     files written here in the kernel's format: 4 bytes of attributes,
#     then the data);
#   - a BootNext pending for another entry (fwupd's "Linux-Firmware-Updater"
#     as its capsule update leaves it): --bootnext refuses, naming it, with
#     nothing written and efibootmgr only asked for its list;
#     --replace-bootnext replaces it;
#   - --sign with a self-signed key made by openssl: sbverify --cert passes
#     on the copy on the ESP, and fails with another certificate;
#   - refusals: a tmpfs (not FAT), a folder that is not a mount point, a
#     512 KiB FAT image (too small for the app); nothing written in each case.
set -uo pipefail
for t in fusefat fusermount mkfs.vfat sbsign sbverify openssl; do
  command -v $t >/dev/null || { echo "FAIL $t missing (tools/setup.sh)"; exit 1; }
done
[ -e /dev/fuse ] || { echo "skip: no /dev/fuse, so no FAT file system can be mounted here"; exit 77; }  # 77: skipped
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }
T=$(mktemp -d)
mounts=()
cleanup() {
  for m in "${mounts[@]+"${mounts[@]}"}"; do
    fusermount -u -z "$m" 2>/dev/null || umount "$m" 2>/dev/null
  done
  # fusefat daemons of this step only (their command lines hold $T).
  pkill -f "^fusefat .*$T/" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
fail=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fail=1; }
# Bounded: fusefat has been seen to spin forever on an operation (never
# with the sequence below so far); a hang then fails the step, not the suite.
inst() { BT_SYSFS=$T/sys timeout 60 bash boot/install.sh "$@"; }

# A FAT image of SIZE KiB mounted on DIR, its source named /dev/nvme0n1p1.
fat_mount() { # IMG KIB DIR
  mkfs.vfat -C "$1" "$2" >/dev/null || return 1
  mkdir -p "$3"
  fusefat -o rw+,fsname=/dev/nvme0n1p1,subtype=fusefat "$1" "$3" >/dev/null 2>&1 || return 1
  mounts+=("$3")
}
# Every file and folder of the ESP with its checksum.
listing() { (cd "$1" && find . -mindepth 1 | sort | while IFS= read -r f; do
  if [ -f "$f" ]; then echo "$f $(sha256sum <"$f" | cut -c1-16)"; else echo "$f/"; fi; done); }

# sysfs as the kernel shows an NVMe disk's first partition.
mkdir -p "$T/sys/devices/pci0000:00/nvme/nvme0/nvme0n1/nvme0n1p1" "$T/sys/class/block"
echo 1 >"$T/sys/devices/pci0000:00/nvme/nvme0/nvme0n1/nvme0n1p1/partition"
ln -s "../../devices/pci0000:00/nvme/nvme0/nvme0n1/nvme0n1p1" "$T/sys/class/block/nvme0n1p1"

esp=$T/esp
fat_mount "$T/esp.img" 65536 "$esp" || { echo "FAIL fusefat cannot mount a FAT image here"; exit 1; }
[ "$(findmnt -n -o FSTYPE --mountpoint "$esp")" = fuse.fusefat ] || no "the image is not mounted as FAT"
# An ESP that already holds a boot loader and an unrelated file.
mkdir -p "$esp/EFI/BOOT" "$esp/EFI/debian"
head -c 5000 /dev/urandom >"$esp/EFI/BOOT/BOOTX64.EFI"
echo "grub" >"$esp/EFI/debian/grub.cfg"
before=$(listing "$esp")

# ---- dry run (efivarfs not writable here)
printf -- '--shutdown\n-w multiply1\n' >"$T/my.cfg"
inst --esp "$esp" --config "$T/my.cfg" --bootnext --label "baretop test" >"$T/dry.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { no "install --bootnext (dry run) exit $rc"; cat "$T/dry.out"; }
grep -q "is not writable .*--dry-run" "$T/dry.out" && ok "efivarfs not writable: dry run by default, and it says so" || no "no dry-run notice"
want="would run: efibootmgr --create-only --disk /dev/nvme0n1 --part 1 --loader \\\\EFI\\\\baretop\\\\baretop.efi --label baretop\\ test"
grep -qxF "$want" "$T/dry.out" && ok "prints: ${want#would run: }" || { no "efibootmgr --create-only line"; cat "$T/dry.out"; }
grep -q '^would run: efibootmgr --bootnext \$(efibootmgr | awk' "$T/dry.out" && ok "prints the --bootnext command" || no "no --bootnext command"
cmp -s build/baretop.efi "$esp/EFI/baretop/baretop.efi" && cmp -s "$T/my.cfg" "$esp/EFI/baretop/baretop.cfg" \
  && ok "copied: \\EFI\\baretop\\baretop.efi ($(stat -c %s "$esp/EFI/baretop/baretop.efi") bytes) and baretop.cfg, equal to their sources" \
  || no "the files on the ESP differ from their sources"
inst --esp "$esp" --remove --label "baretop test" >"$T/rm.out" 2>&1 || no "--remove exit status"
after=$(listing "$esp")
[ "$before" = "$after" ] && ok "--remove: the ESP's $(echo "$after" | wc -l) entries and checksums are as before the install" \
  || { no "--remove left the ESP changed"; diff <(echo "$before") <(echo "$after"); }
grep -q "would run: for n in .* efibootmgr --bootnum \$n --delete-bootnum" "$T/rm.out" && ok "--remove prints the entry deletion" || no "no deletion command"
grep -q "would run: rm -f .*BaretopState-6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93" "$T/rm.out" && ok "--remove (dry run) names the BaretopState variable it would delete" || no "no BaretopState line: $(cat "$T/rm.out")"

# ---- an ESP without \EFI: the install creates it, --remove takes it away
esp2=$T/esp2
fat_mount "$T/esp2.img" 65536 "$esp2" || no "second mount"
before2=$(listing "$esp2")
inst --esp "$esp2" >/dev/null 2>&1 || no "install on an empty ESP"
[ -f "$esp2/EFI/baretop/baretop.efi" ] || no "nothing installed on the empty ESP"
inst --esp "$esp2" --remove >/dev/null 2>&1
after2=$(listing "$esp2")
[ "$before2" = "$after2" ] && ok "empty ESP: \\EFI created by the install is removed again (listing: '${after2}')" || no "empty ESP changed: $after2"

# ---- NVRAM path: writable efivarfs stand-in + efibootmgr STAND-IN
mkdir -p "$T/efivars" "$T/bin"
cat >"$T/bin/efibootmgr" <<'SH'
#!/usr/bin/env bash
# STAND-IN for efibootmgr (test only): records its arguments; lists the
# entries the way efibootmgr 17 does (label, tab, device path).
state=${0%/bin/efibootmgr}/nvram
echo "$*" >>"$state.log"
[ -f "$state" ] || printf 'BootCurrent: 0001\nBootOrder: 0001,0000\nBoot0000* UiApp\tFvVol(7cb8bdc9)/FvFile(462caa21)\nBoot0001* debian\tHD(1,GPT,0e9f,0x800,0x100000)/File(\\EFI\\debian\\shimx64.efi)\nBoot0002  baretop old\tHD(1,GPT,0e9f,0x800,0x100000)/File(\\x.efi)\n' >"$state"
case "$1" in
  --create-only) printf 'Boot0007* %s\tHD(%s,GPT,0e9f,0x800,0x100000)/File(%s)\n' "$9" "$5" "$7" >>"$state" ;;
  --bootnum) grep -v "^Boot$2" "$state" >"$state.new"; mv "$state.new" "$state" ;;
esac
[ $# -eq 0 ] && cat "$state"
exit 0
SH
chmod +x "$T/bin/efibootmgr"
nv() { PATH=$T/bin:$PATH BT_EFIVARS=$T/efivars BT_SYSFS=$T/sys timeout 60 bash boot/install.sh "$@"; }
gvar=8be4df61-93ca-11d2-aa0d-00e098032b8c
# efivarfs files: attributes NV|BS|RT (7), then the data
efivar() { python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<I",7)+bytes.fromhex(sys.argv[2]))' "$@"; }
# fwupd's capsule update pending: BootNext = Boot0004 "Linux-Firmware-Updater"
efivar "$T/efivars/BootNext-$gvar" 0400
efivar "$T/efivars/Boot0004-$gvar" "$(python3 -c 'import struct; d="Linux-Firmware-Updater\0".encode("utf-16-le"); p=bytes([0x7f,0xff,4,0]); print((struct.pack("<IH",1,len(p))+d+p).hex())')"
nv --esp "$esp" --bootnext --label "baretop" >"$T/pend.out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q 'BootNext is already Boot0004 ("Linux-Firmware-Updater"), pending for the next boot' "$T/pend.out" &&
  ! grep -q . "$T/nvram.log" && [ "$before" = "$(listing "$esp")" ] &&
  ok "a pending BootNext is not overwritten: exit 1, nothing written, efibootmgr only listed: $(head -c 150 "$T/pend.out")..." ||
  no "pending BootNext: exit $rc, calls '$(cat "$T/nvram.log" 2>/dev/null)': $(cat "$T/pend.out")"
nv --esp "$esp" --bootnext --replace-bootnext --label "baretop" >"$T/repl.out" 2>&1 &&
  grep -q 'replacing the pending BootNext Boot0004 ("Linux-Firmware-Updater") (--replace-bootnext)' "$T/repl.out" &&
  grep -qx -- '--bootnext 0007' "$T/nvram.log" && ok "--replace-bootnext replaces it, saying so (--bootnext 0007)" ||
  no "--replace-bootnext: $(cat "$T/repl.out")"
nv --esp "$esp" --remove --label "baretop" >/dev/null 2>&1 || no "remove after --replace-bootnext"
rm -f "$T/efivars/BootNext-$gvar" "$T/nvram" "$T/nvram.log"
nv --esp "$esp" --bootnext --label "baretop" >"$T/nv.out" 2>&1 || no "install with NVRAM: $(tail -2 "$T/nv.out")"
# what baretop leaves in NVRAM, and the BootNext still pointing at its entry
efivar "$T/efivars/BootNext-$gvar" 0700
efivar "$T/efivars/BaretopState-6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93" "42415354$(printf '00%.0s' $(seq 36))"
nv --esp "$esp" --remove --label "baretop" >>"$T/nv.out" 2>&1 || no "remove with NVRAM"
calls="|$(grep -v "^$" "$T/nvram.log" | tr "\n" "|")"
want='|--create-only --disk /dev/nvme0n1 --part 1 --loader \EFI\baretop\baretop.efi --label baretop|'
case "$calls" in *"$want"*) ok "efibootmgr called: --create-only --disk /dev/nvme0n1 --part 1 ... (stand-in)";; *) no "calls: $calls";; esac
case "$calls" in *"|--bootnext 0007|"*) ok "--bootnext 0007, the new entry found by its label (not 'baretop old', Boot0002)";; *) no "no --bootnext 0007: $calls";; esac
case "$calls" in *"|--bootnum 0007 --delete-bootnum|--delete-bootnext|"*) ok "--remove deletes Boot0007 and the BootNext left pointing at it";; *) no "no deletion of 0007 and its BootNext: $calls";; esac
[ ! -e "$T/efivars/BaretopState-6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93" ] && grep -q 'running: rm .*BaretopState-6c1f6e3a' "$T/nv.out" &&
  ok "--remove deletes the BaretopState variable (efivarfs file gone)" || no "BaretopState left: $(ls "$T/efivars")"
grep -q "Boot0002  baretop old" "$T/nvram" && ok "the other entries stay (Boot0002 'baretop old' kept)" || no "another entry was deleted"
[ "$before" = "$(listing "$esp")" ] || no "ESP changed after the NVRAM round"

# ---- Secure Boot signing with a self-signed key
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=baretop test db key/" \
  -keyout "$T/db.key" -out "$T/db.crt" >/dev/null 2>&1 || no "openssl req"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=some other key/" \
  -keyout "$T/other.key" -out "$T/other.crt" >/dev/null 2>&1
inst --esp "$esp" --sign "$T/db.key" --cert "$T/db.crt" >"$T/sign.out" 2>&1 || { no "install --sign: $(tail -2 "$T/sign.out")"; }
if sbverify --cert "$T/db.crt" "$esp/EFI/baretop/baretop.efi" >"$T/v.out" 2>&1; then
  ok "signed copy on the ESP: sbverify --cert db.crt: $(tail -1 "$T/v.out")"
else
  no "sbverify rejects the signed copy: $(tail -2 "$T/v.out")"
fi
sbverify --cert "$T/other.crt" "$esp/EFI/baretop/baretop.efi" >/dev/null 2>&1 \
  && no "sbverify accepted another certificate" || ok "sbverify --cert other.crt fails (negative case)"
sbverify --cert "$T/db.crt" build/baretop.efi >/dev/null 2>&1 \
  && no "the unsigned build verifies?" || ok "the unsigned build/baretop.efi does not verify"
inst --esp "$esp" --remove >/dev/null 2>&1
[ "$before" = "$(listing "$esp")" ] || no "ESP changed after the signed round"

# ---- refusals
mkdir -p "$T/tmpfs"
if mount -t tmpfs -o size=8m none "$T/tmpfs" 2>/dev/null; then
  mounts+=("$T/tmpfs")
  inst --esp "$T/tmpfs" >"$T/r1" 2>&1; rc=$?
  [ $rc -eq 1 ] && grep -q "tmpfs file system, not FAT" "$T/r1" && [ -z "$(ls -A "$T/tmpfs")" ] \
    && ok "refused: $(head -1 "$T/r1")" || no "tmpfs not refused (exit $rc): $(cat "$T/r1")"
else
  echo "skip not-FAT case: tmpfs cannot be mounted here"
fi
mkdir -p "$T/plain"
inst --esp "$T/plain" >"$T/r2" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "not a mount point" "$T/r2" && [ -z "$(ls -A "$T/plain")" ] \
  && ok "refused: $(head -1 "$T/r2" | sed "s|$T|T|g")" || no "plain folder not refused (exit $rc)"
fat_mount "$T/small.img" 512 "$T/small" || no "small mount"
inst --esp "$T/small" >"$T/r3" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "bytes free; baretop needs" "$T/r3" && [ -z "$(ls -A "$T/small")" ] \
  && ok "refused: $(grep "bytes free" "$T/r3" | sed "s|$T|T|g")" || no "small ESP not refused (exit $rc): $(cat "$T/r3")"
mkdir -p "$T/nosys"
BT_SYSFS=$T/nosys timeout 60 bash boot/install.sh --esp "$esp" >"$T/r4" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "cannot tell the disk and partition of /dev/nvme0n1p1" "$T/r4" && [ "$before" = "$(listing "$esp")" ] \
  && ok "refused before writing: no disk/partition for the mount's source without --disk/--part" || no "unknown disk not refused (exit $rc): $(cat "$T/r4")"
inst --esp "$esp" --sign "$T/db.key" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "usage error: --sign without --cert (exit 2)" || no "--sign without --cert: exit $rc"
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs baretop onto a mounted EFI System Partition from Linux, with a
# UEFI boot entry for it, and removes it all again.
#
#   boot/install.sh --esp MOUNTPOINT [--config FILE] [--label NAME]
#                   [--bootnext [--replace-bootnext]] [--dry-run] [--remove]
#                   [--sign KEY --cert CERT [--key-pass ARG]]
#                   [--efi FILE] [--disk DEV --part N]
#
# Copies the app to \EFI\baretop\baretop.efi and the options to
# \EFI\baretop\baretop.cfg (--config FILE, or a default one), then creates a
# boot entry NAME (default "baretop") for it with `efibootmgr --create-only`:
# the entry is not put into BootOrder, so the machine's normal boot is
# unchanged; --bootnext also sets BootNext to it, for one run at the next
# boot only. A BootNext already pending for another entry (fwupd's capsule
# update sets one for its own loader) is not overwritten: the install
# refuses before writing anything, naming that entry; --replace-bootnext
# replaces it anyway. The disk and partition of the entry come from the mount
# (findmnt, then /sys/class/block/<partition>/partition and its parent
# disk); --disk and --part give them when the mount cannot tell (a FUSE
# mount, an image).
#
# --dry-run prints the exact efibootmgr commands instead of running them (the
# files are still copied); it is the default when /sys/firmware/efi/efivars
# is not writable. --remove deletes what an install put there (the files,
# the folders it created, the boot entries labelled NAME, a BootNext left
# pointing at one of them) and baretop's own NVRAM state (the BaretopState
# variable), and leaves the ESP as it was; results baretop wrote
# (\baretop\results) are kept.
# --sign KEY --cert CERT signs the copy for Secure Boot with sbsign and
# checks it with sbverify --cert CERT (enroll CERT in db, or via shim's MOK),
# through boot/sign.sh (an sbsign warning is an error); --key-pass ARG opens
# an encrypted KEY (openssl's -passin: pass:WORD, env:VAR, file:PATH).
#
# Refuses (exit 1) when MOUNTPOINT is not a mounted FAT file system (vfat,
# msdos, fuse.fusefat), when the partition is typed as something other than
# an ESP, or when it has too little free space. Usage errors exit 2.
set -euo pipefail

ESP_GUID=c12a7328-f81f-11d2-ba4b-00a0c93ec93b
SYSFS=${BT_SYSFS:-/sys}            # overridable for the tests
EFIVARS=${BT_EFIVARS:-/sys/firmware/efi/efivars}
DIR_ON_ESP=EFI/baretop
MANIFEST=install.manifest

GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c   # EFI_GLOBAL_VARIABLE (UEFI 2.10 3.3)
BARETOP_GUID=6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93  # baretop's vendor GUID (README, "The state in NVRAM")

esp="" cfg_src="" label=baretop bootnext=0 replace_bootnext=0 dry=0 remove=0 key="" cert="" keypass=""
efi=build/baretop.efi disk="" part=""

usage() { sed -n '3,38p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "install: $*" >&2; exit 1; }
bad() { echo "install: $*" >&2; usage >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --esp) esp=${2:-}; shift 2 ;;
    --config) cfg_src=${2:-}; shift 2 ;;
    --label) label=${2:-}; shift 2 ;;
    --bootnext) bootnext=1; shift ;;
    --replace-bootnext) replace_bootnext=1; shift ;;
    --dry-run) dry=1; shift ;;
    --remove) remove=1; shift ;;
    --sign) key=${2:-}; shift 2 ;;
    --cert) cert=${2:-}; shift 2 ;;
    --key-pass) keypass=${2:-}; shift 2 ;;
    --efi) efi=${2:-}; shift 2 ;;
    --disk) disk=${2:-}; shift 2 ;;
    --part) part=${2:-}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) bad "unknown option $1" ;;
  esac
done
[ -n "$esp" ] || bad "--esp MOUNTPOINT is required"
[ -n "$label" ] || bad "--label must not be empty"
{ [ -n "$key" ] && [ -z "$cert" ]; } || { [ -z "$key" ] && [ -n "$cert" ]; } &&
  bad "--sign KEY and --cert CERT go together"
[ -n "$keypass" ] && [ -z "$key" ] && bad "--key-pass goes with --sign KEY"
[ "$replace_bootnext" = 1 ] && [ "$bootnext" = 0 ] && bad "--replace-bootnext goes with --bootnext"
{ [ -n "$disk" ] && [ -z "$part" ]; } || { [ -z "$disk" ] && [ -n "$part" ]; } &&
  bad "--disk DEV and --part N go together"

# ---------------------------------------------------------------- the target
esp=$(cd "$esp" 2>/dev/null && pwd -P) || die "$esp: no such folder"
target=$(findmnt -n -o TARGET --target "$esp" 2>/dev/null || true)
[ "$target" = "$esp" ] || die "$esp is not a mount point (it is inside ${target:-?}): mount the ESP and give its mount point"
fstype=$(findmnt -n -o FSTYPE --mountpoint "$esp")
source=$(findmnt -n -o SOURCE --mountpoint "$esp")
case "$fstype" in
  vfat|msdos|fuse.fusefat) ;;
  *) die "$esp is a $fstype file system, not FAT: an EFI System Partition is FAT (UEFI 2.x 13.3)" ;;
esac

# The disk and partition number of the mount's source, from sysfs:
# /sys/class/block/<name>/partition holds the number, its parent folder is
# the disk (Documentation/ABI/testing/sysfs-block).
if [ -z "$disk" ]; then
  name=$(basename "$(readlink -f "$source" 2>/dev/null || echo "$source")")
  if [ -r "$SYSFS/class/block/$name/partition" ]; then
    part=$(cat "$SYSFS/class/block/$name/partition")
    disk=/dev/$(basename "$(dirname "$(readlink -f "$SYSFS/class/block/$name")")")
  fi
fi
ptype=""
[ -b "$source" ] && ptype=$(lsblk -dno PARTTYPE "$source" 2>/dev/null | tr 'A-F' 'a-f' || true)
if [ -n "$ptype" ] && [ "$ptype" != "$ESP_GUID" ] && [ "$ptype" != 0xef ]; then
  die "$source is partition type $ptype, not an EFI System Partition ($ESP_GUID or MBR 0xef)"
fi

# NVRAM: real only when efivarfs is writable and efibootmgr exists.
if [ "$dry" = 0 ] && ! { [ -w "$EFIVARS" ] && command -v efibootmgr >/dev/null; }; then
  echo "install: $EFIVARS is not writable (or efibootmgr is missing): --dry-run, the efibootmgr commands are printed, not run"
  dry=1
fi

# Runs an efibootmgr command, or prints it exactly (quoted for a shell).
nvram() {
  if [ "$dry" = 1 ]; then
    printf 'would run:'; printf ' %q' "$@"; printf '\n'
  else
    echo "running: $*"
    "$@" >/dev/null
  fi
}
# The Boot#### numbers of the entries labelled $label (efibootmgr's list:
# "Boot0003* baretop" then, from version 17, a tab and the device path).
# "Boot0002  name" (two spaces) is an inactive entry. No {4} intervals:
# Debian's default awk (mawk) does not know them.
entries_cmd="efibootmgr | awk -v l=$(printf '%q' "$label") '/^Boot[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][* ] / { n = substr(\$1, 5, 4); sub(/^Boot[0-9A-Fa-f]+[* ] /, \"\"); sub(/\\t.*/, \"\"); if (\$0 == l) print n }'"
entries() { bash -c "$entries_cmd"; }

# efivarfs: a variable NAME-GUID is a file of its 4-byte attributes and its
# data (Documentation/filesystems/efivarfs.rst).
# The pending BootNext as 4 hex digits, or nothing.
boot_next() {
  local f=$EFIVARS/BootNext-$GLOBAL_GUID
  [ -r "$f" ] && [ "$(stat -c %s "$f")" = 6 ] || return 0
  printf '%04X' "$(od -An -tu2 -j4 -N2 "$f" | tr -d ' ')"
}
# The description of Boot#### (EFI_LOAD_OPTION: UINT32 attributes, UINT16
# path length, then the NUL-ended UCS-2 description; UEFI 2.10 3.1.3).
boot_desc() {
  local f=$EFIVARS/Boot$1-$GLOBAL_GUID
  [ -r "$f" ] || { echo "?"; return; }
  tail -c +11 "$f" | iconv -c -f UTF-16LE -t UTF-8 2>/dev/null | tr '\0' '\n' | head -1
}
# Linux makes most efivarfs files immutable (chattr +i) against accidental
# deletion; a file that must go is made mutable first.
delete_var() {
  local f=$1
  if [ "$dry" = 1 ]; then
    printf 'would run:'; printf ' %q' chattr -i "$f"; printf ';'; printf ' %q' rm -f "$f"; printf '\n'
  else
    echo "running: rm $f"
    chattr -i "$f" 2>/dev/null || true
    rm -f "$f" || die "could not delete $f"
  fi
}

dest=$esp/$DIR_ON_ESP
loader='\'${DIR_ON_ESP//\//\\}'\baretop.efi'

# ---------------------------------------------------------------- remove
if [ "$remove" = 1 ]; then
  created_efi=0
  if [ -f "$dest/$MANIFEST" ]; then
    grep -qx 'file EFI/.baretop-created' "$dest/$MANIFEST" && created_efi=1
    grep '^file ' "$dest/$MANIFEST" | cut -c6- | while IFS= read -r f; do
      rm -f "$esp/$f" && echo "removed \\${f//\//\\}"
    done
    rm -f "$dest/$MANIFEST"
  else
    echo "install: no \\${DIR_ON_ESP//\//\\}\\$MANIFEST: removing baretop.efi and baretop.cfg only"
    rm -f "$dest/baretop.efi" "$dest/baretop.cfg"
  fi
  # The folders, when left empty: \EFI\baretop, and \EFI only if the
  # install created it.
  rmdir "$dest" 2>/dev/null && echo "removed folder \\${DIR_ON_ESP//\//\\}" || true
  if [ "$created_efi" = 1 ]; then
    rmdir "$esp/EFI" 2>/dev/null && echo "removed folder \\EFI" || true
  fi
  if [ "$dry" = 1 ]; then
    echo "would run: for n in \$($entries_cmd); do efibootmgr --bootnum \$n --delete-bootnum; done"
  else
    next=$(boot_next)
    for n in $(entries); do
      nvram efibootmgr --bootnum "$n" --delete-bootnum
      # a BootNext left pointing at a deleted entry would name nothing
      if [ "$next" = "$(echo "$n" | tr 'a-f' 'A-F')" ]; then nvram efibootmgr --delete-bootnext; fi
    done
  fi
  # baretop's own state: what it remembered between boots (--run)
  state=$EFIVARS/BaretopState-$BARETOP_GUID
  if [ -e "$state" ]; then
    delete_var "$state"
  elif [ "$dry" = 1 ]; then
    echo "would run: rm -f $state (if present; not there now)"
  fi
  [ -d "$esp/baretop/results" ] && echo "kept: \\baretop\\results (the results baretop wrote)"
  echo "install: removed"
  exit 0
fi

# ---------------------------------------------------------------- install
[ -n "$disk" ] || die "cannot tell the disk and partition of $source (mounted on $esp): give --disk DEV --part N"
# A BootNext pending for another entry is someone's one boot (fwupd's
# capsule update makes its own loader BootNext and installs the firmware
# in that boot): baretop's would replace it, and the update would never
# run. Checked before anything is written; the dry run reads it too.
pending=$(boot_next)
if [ "$bootnext" = 1 ] && [ -n "$pending" ]; then
  mine=""
  if [ "$dry" = 0 ]; then mine=$(entries | tr 'a-f' 'A-F' | grep -x "$pending" || true); fi
  if [ -z "$mine" ] && [ "$replace_bootnext" = 0 ]; then
    die "BootNext is already Boot$pending (\"$(boot_desc "$pending")\"), pending for the next boot (a firmware update by fwupd sets one): --bootnext would replace it; install without --bootnext, run again after that boot, or give --replace-bootnext"
  fi
  [ -n "$mine" ] || echo "install: replacing the pending BootNext Boot$pending (\"$(boot_desc "$pending")\") (--replace-bootnext)"
fi
[ -f "$efi" ] || die "$efi not found (run make)"
if [ -n "$cfg_src" ]; then
  [ -f "$cfg_src" ] || die "--config $cfg_src: no such file"
fi
if [ -n "$key" ]; then
  command -v sbsign >/dev/null && command -v sbverify >/dev/null ||
    die "--sign needs sbsign and sbverify (Debian sbsigntool; tools/setup.sh)"
  [ -r "$key" ] || die "--sign $key: cannot read"
  [ -r "$cert" ] || die "--cert $cert: cannot read"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$efi" "$work/baretop.efi"
if [ -n "$key" ]; then
  signargs=(--key "$key" --cert "$cert")
  [ -n "$keypass" ] && signargs+=(--passin "$keypass")
  bash "$(dirname "$0")/sign.sh" "${signargs[@]}" "$work/baretop.efi" "$work/signed.efi" 2>"$work/sign.err" ||
    die "$(sed 's|^boot/sign.sh: ||' "$work/sign.err" | tail -1)"
  mv "$work/signed.efi" "$work/baretop.efi"
fi
if [ -n "$cfg_src" ]; then
  cp "$cfg_src" "$work/baretop.cfg"
else
  # No end action: when the run is over baretop returns to the firmware's
  # boot manager with EFI_NOT_STARTED, and the boot manager goes on with
  # BootOrder (the OS). EFI_SUCCESS would stop EDK2's boot manager at its
  # menu (README, "Boot-time runs for fleets"). The OS then boots in the
  # boot baretop ran in: see the TPM note there (--then reboot avoids it).
  printf '# baretop options (see baretop.efi --help); written by boot/install.sh\n' >"$work/baretop.cfg"
fi

# Space: both files plus a margin for the FAT's directory entries and the
# results folder's first file (64 KiB).
need=$(( $(stat -c %s "$work/baretop.efi") + $(stat -c %s "$work/baretop.cfg") + 65536 ))
for f in baretop.efi baretop.cfg; do   # a reinstall frees the old copies
  [ -f "$dest/$f" ] && need=$(( need - $(stat -c %s "$dest/$f") ))
done
avail=$(df -B1 --output=avail "$esp" | tail -1 | tr -d ' ')
[ "$avail" -ge "$need" ] || die "$esp has $avail bytes free; baretop needs $need (the app, its options and 64 KiB for results): free some space"

# Folders, remembering which ones this install created.
created_efi=0
[ -d "$esp/EFI" ] || { mkdir "$esp/EFI"; created_efi=1; }
[ -d "$dest" ] || mkdir "$dest"
[ "$created_efi" = 1 ] && : >"$esp/EFI/.baretop-created"
cp "$work/baretop.efi" "$dest/baretop.efi.tmp" && mv -f "$dest/baretop.efi.tmp" "$dest/baretop.efi"
cp "$work/baretop.cfg" "$dest/baretop.cfg"
{
  echo "# written by boot/install.sh; read by --remove"
  echo "file $DIR_ON_ESP/baretop.efi"
  echo "file $DIR_ON_ESP/baretop.cfg"
  # (a reinstall keeps the mark of the first install that created \EFI)
  [ -f "$esp/EFI/.baretop-created" ] && echo "file EFI/.baretop-created"
  echo "label $label"
} >"$dest/$MANIFEST"
sync -f "$dest/baretop.efi" 2>/dev/null || true
echo "copied: ${loader} ($(stat -c %s "$dest/baretop.efi") bytes), \\${DIR_ON_ESP//\//\\}\\baretop.cfg"

if [ "$dry" = 0 ] && [ -n "$(entries)" ]; then
  echo "install: a boot entry labelled '$label' exists already (Boot$(entries | head -1)): kept"
else
  nvram efibootmgr --create-only --disk "$disk" --part "$part" --loader "$loader" --label "$label"
fi
if [ "$bootnext" = 1 ]; then
  if [ "$dry" = 1 ]; then
    echo "would run: efibootmgr --bootnext \$($entries_cmd | head -1)"
  else
    nvram efibootmgr --bootnext "$(entries | head -1)"
  fi
fi
echo "install: done; boot entry '$label' on $disk partition $part"

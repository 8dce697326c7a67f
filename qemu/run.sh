#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots baretop.efi in QEMU + OVMF (TCG: software emulation, so no PMU) from a
# FAT ESP image, captures the serial console, and copies baretop's files
# back out with mtools.
#
#   qemu/run.sh [--efi FILE] [--cpu MODEL] [--smp N] [--mem MIB] [--timeout S]
#               [--out DIR] [--args "BARETOP OPTIONS"] [--no-unattended]
#               [--readonly] [--fill-esp] [--esp-mib N] [--add FILE=ESP/PATH]...
#               [--keep-esp] [--show] [--full-size] [--vars FILE]
#               [--secure-boot] [--until REGEX] [--until-n N] [--reboot]
#               [--qemu-arg ARG]... [--trace-boots] [--firmware DIR]
# Defaults: --efi build/baretop.efi, --cpu QEMU's own (qemu64), --smp 2,
# --mem 512, --timeout 120, --esp-mib 64.
#
# baretop's options go into EFI\BOOT\baretop.cfg next to the app (the boot
# manager passes no command line); --shutdown --qemu-exit are added unless
# --no-unattended, so the run ends by itself, and --quick (the workloads'
# small preset: TCG is 50-100x slower than hardware) unless --full-size. Outputs in DIR (default
# build/qemu/run): esp.img, serial.log (raw), console.txt (escape codes
# removed), esp/ (a copy of \baretop on the ESP). --keep-esp boots DIR/esp.img
# again as it is (only the app and baretop.cfg are replaced), as a machine
# that runs baretop at every boot would. --show also prints the console as
# it runs (make run does). --vars FILE boots OVMF_CODE_4M.fd with FILE as
# its writable variable store (pflash), created from OVMF_VARS_4M.fd when it
# does not exist and kept between boots: NVRAM variables persist, as on a
# machine (without it, -bios OVMF.fd keeps none across runs). --qemu-arg
# passes one more argument to QEMU (repeatable, in order), e.g.
# --qemu-arg -smbios --qemu-arg type=1,serial=X. --secure-boot boots with
# Secure Boot enforced: Debian's OVMF_CODE_4M.snakeoil.fd with a fresh copy
# of OVMF_VARS_4M.snakeoil.fd (the snakeoil test key in PK, KEK and db;
# /usr/share/doc/ovmf/README.Debian) in DIR/vars-secure-boot.fd, or in the
# --vars FILE when given, on a q35 machine with SMM (the secure boot build
# of OVMF refuses to start without it); the app must then be signed with
# /usr/share/ovmf/PkKek-1-snakeoil.key (boot/install.sh --sign). --until
# REGEX ends the boot as soon as the console shows a line matching the
# extended REGEX (QEMU is stopped; exit status 0): for boots that end at
# the firmware's menu, such as an image Secure Boot refuses; with --until-n
# N, at the N-th such line (a line seen on every boot). --reboot lets
# the machine restart on a reset (no -no-reboot): one run spans every boot
# until a power-off, --until or --timeout, as a machine that reboots by
# itself (boots are counted on the console). --trace-boots (with --vars or
# --secure-boot: the flash chips) marks every start of the machine in the
# console, in order with what the firmware and the apps print: QEMU's own
# trace events pflash_reset (the variable store's chip, system.flash1, is
# reset when the machine starts and on every reset) and
# pflash_sector_erase_start (a flash block erased: EDK2's variable store
# reclaimed) go to QEMU's stderr, which is then the same open file as the
# serial console (serial.log; qemu.err stays empty), so each trace line
# falls between the console bytes written before and after it
# (tests/suite/lib/boot_series.py counts boots, resets and erases from them).
# --firmware DIR boots another build of OVMF instead of Debian's: DIR holds
# OVMF.fd (for -bios) and OVMF_CODE.fd / OVMF_VARS.fd (for --vars), as
# tools/build-ovmf.sh leaves them (not with --secure-boot).
#
# Exit status: baretop's own (0 when it powered off cleanly; (rc-1)/2 when it
# reported a failure through isa-debug-exit), 124 on timeout, 125 when QEMU
# itself failed.
set -euo pipefail

efi=build/baretop.efi
cpu=""
smp=2
mem=512
timeout_s=120
out=build/qemu/run
args=""
unattended=1
readonly_esp=0
fill_esp=0
esp_mib=64
keep_esp=0
show=0
full_size=0
adds=()
vars_file=""
extra_qemu=()
secure_boot=0
until_re=""
reboot=0
until_n=1
trace_boots=0
firmware=""

usage() { sed -n '3,58p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --efi) efi=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --smp) smp=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --args) args=$2; shift 2 ;;
    --no-unattended) unattended=0; shift ;;
    --readonly) readonly_esp=1; shift ;;
    --fill-esp) fill_esp=1; shift ;;
    --esp-mib) esp_mib=$2; shift 2 ;;
    --add) adds+=("$2"); shift 2 ;;
    --keep-esp) keep_esp=1; shift ;;
    --show) show=1; shift ;;
    --full-size) full_size=1; shift ;;
    --vars) vars_file=$2; shift 2 ;;
    --qemu-arg) extra_qemu+=("$2"); shift 2 ;;
    --secure-boot) secure_boot=1; shift ;;
    --until) until_re=$2; shift 2 ;;
    --until-n) until_n=$2; shift 2 ;;
    --reboot) reboot=1; shift ;;
    --trace-boots) trace_boots=1; shift ;;
    --firmware) firmware=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "qemu/run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

ovmf=""
code=/usr/share/OVMF/OVMF_CODE_4M.fd
vars_template=/usr/share/OVMF/OVMF_VARS_4M.fd
if [ -n "$firmware" ]; then
  [ "$secure_boot" = 0 ] || { echo "qemu/run.sh: --firmware with --secure-boot" >&2; exit 2; }
  ovmf=$firmware/OVMF.fd code=$firmware/OVMF_CODE.fd vars_template=$firmware/OVMF_VARS.fd
  for f in "$ovmf" "$code" "$vars_template"; do
    [ -f "$f" ] || { echo "qemu/run.sh: $f not found (tools/build-ovmf.sh)" >&2; exit 125; }
  done
fi
for f in /usr/share/ovmf/OVMF.fd /usr/share/OVMF/OVMF.fd /usr/share/qemu/OVMF.fd; do
  [ -z "$ovmf" ] && [ -f "$f" ] && { ovmf=$f; break; }
done
[ -n "$ovmf" ] || { echo "qemu/run.sh: OVMF.fd not found (apt-get install ovmf)" >&2; exit 125; }
[ -f "$efi" ] || { echo "qemu/run.sh: $efi not found (run make)" >&2; exit 125; }

mkdir -p "$out"
img=$out/esp.img
if [ "$keep_esp" = 0 ] || [ ! -f "$img" ]; then
  rm -f "$img"
  # A FAT16 image: mformat picks the FAT type from the size.
  dd if=/dev/zero of="$img" bs=1M count="$esp_mib" status=none
  mformat -i "$img" -v BARETOP ::
  mmd -i "$img" ::/EFI ::/EFI/BOOT
fi
mcopy -o -i "$img" "$efi" ::/EFI/BOOT/BOOTX64.EFI
cfg=$(mktemp)
{
  echo "# written by qemu/run.sh"
  [ "$unattended" = 1 ] && echo "--shutdown --qemu-exit"
  # TCG is 50-100x slower than hardware: the workloads' small preset.
  [ "$full_size" = 0 ] && echo "--quick"
  [ -n "$args" ] && printf '%s\n' "$args"
} >"$cfg"
mcopy -o -i "$img" "$cfg" ::/EFI/BOOT/baretop.cfg
rm -f "$cfg"
for a in "${adds[@]+"${adds[@]}"}"; do
  src=${a%%=*}; dst=${a#*=}
  d=$(dirname "$dst")
  # create the parent folders one by one (mmd has no -p)
  p=""; IFS=/ read -ra parts <<<"${d#/}"
  for part in "${parts[@]}"; do
    [ -n "$part" ] || continue
    p="$p/$part"; mmd -i "$img" "::$p" 2>/dev/null || true
  done
  mcopy -o -i "$img" "$src" "::$dst"
done
if [ "$fill_esp" = 1 ]; then
  # Leave the volume with no free space: baretop must still print its whole
  # report and say where the results could not be written.
  bytes=$(mdir -i "$img" :: | awk '/bytes free/ {gsub(/[^0-9]/, ""); print}')
  filler=$(mktemp)
  head -c "${bytes:-0}" /dev/zero >"$filler"
  mcopy -i "$img" "$filler" ::/FILLER.BIN 2>/dev/null || true
  rm -f "$filler"
fi

drive="if=virtio,format=raw,file=$img"
[ "$readonly_esp" = 1 ] && drive="$drive,readonly=on"
fw=(-bios "$ovmf")
if [ -n "$vars_file" ] && [ "$secure_boot" = 0 ]; then
  [ -f "$code" ] || { echo "qemu/run.sh: $code not found (apt-get install ovmf)" >&2; exit 125; }
  [ -f "$vars_file" ] || cp "$vars_template" "$vars_file"
  # Two flash chips instead of -bios: the code read-only, the variables writable.
  fw=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$code"
      -drive "if=pflash,format=raw,unit=1,file=$vars_file")
fi
if [ "$secure_boot" = 1 ]; then
  code=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd
  tmpl=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
  for f in "$code" "$tmpl"; do
    [ -f "$f" ] || { echo "qemu/run.sh: $f not found (apt-get install ovmf)" >&2; exit 125; }
  done
  # Each boot starts from the template's keys unless --vars keeps a store.
  if [ -z "$vars_file" ]; then
    vars_file=$out/vars-secure-boot.fd
    cp "$tmpl" "$vars_file"
  else
    [ -f "$vars_file" ] || cp "$tmpl" "$vars_file"
  fi
  fw=(-machine q35,smm=on -global driver=cfi.pflash01,property=secure,value=on
      -drive "if=pflash,format=raw,unit=0,readonly=on,file=$code"
      -drive "if=pflash,format=raw,unit=1,file=$vars_file")
fi
if [ "$trace_boots" = 1 ]; then
  [ -n "$vars_file" ] || [ "$secure_boot" = 1 ] ||
    { echo "qemu/run.sh: --trace-boots needs --vars or --secure-boot (flash chips to trace)" >&2; exit 2; }
  extra_qemu+=(-trace pflash_reset -trace pflash_sector_erase_start)
fi
noreboot=(-no-reboot)
[ "$reboot" = 1 ] && noreboot=()
qemu_args=(-nodefaults -nographic "${noreboot[@]+"${noreboot[@]}"}" -serial stdio -m "$mem" -smp "$smp"
           "${fw[@]}" -drive "$drive"
           -device isa-debug-exit,iobase=0xf4,iosize=0x04)
[ -n "$cpu" ] && qemu_args+=(-cpu "$cpu")
qemu_args+=("${extra_qemu[@]+"${extra_qemu[@]}"}")

# QEMU's stderr: qemu.err, or with --trace-boots the console's own open
# file (2>&1 shares stdout's file offset, so neither overwrites the other).
qemu() {
  : >"$out/qemu.err"
  if [ "$trace_boots" = 1 ]; then "$@" 2>&1; else "$@" 2>"$out/qemu.err"; fi
}

set +e
if [ "$show" = 1 ]; then
  qemu timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 "${qemu_args[@]}" \
    </dev/null | tee "$out/serial.log" |
    sed -u -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' -e 's/\r$//'
  rc=${PIPESTATUS[0]}
elif [ -n "$until_re" ]; then
  : >"$out/serial.log"
  # (not through qemu(): $! must be timeout's own process, which passes
  # the kill below on to QEMU)
  : >"$out/qemu.err"
  if [ "$trace_boots" = 1 ]; then
    timeout -k 5 "$timeout_s" qemu-system-x86_64 "${qemu_args[@]}" </dev/null >"$out/serial.log" 2>&1 &
  else
    timeout -k 5 "$timeout_s" qemu-system-x86_64 "${qemu_args[@]}" \
      </dev/null >"$out/serial.log" 2>"$out/qemu.err" &
  fi
  qpid=$!
  matched=0
  while kill -0 "$qpid" 2>/dev/null; do
    if [ "$(sed -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' -e 's/\r/\n/g' "$out/serial.log" | grep -cE -- "$until_re")" -ge "$until_n" ]; then
      matched=1; kill "$qpid" 2>/dev/null; break
    fi
    sleep 0.5
  done
  wait "$qpid"
  rc=$?
  [ "$matched" = 1 ] && rc=0
else
  qemu timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 "${qemu_args[@]}" \
    </dev/null >"$out/serial.log"
  rc=$?
fi
set -e

# Console text without terminal escape sequences and CRs.
# A trace line (--trace-boots) may fall inside a console line: put it on its own.
sed -e 's/\x1b\[[0-9;=?]*[A-Za-z]//g' -e 's/\r$//' -e 's/\r/\n/g' \
  -e 's/\(.\)\(pflash_\(reset\|sector_erase_start\) \)/\1\n\2/g' "$out/serial.log" >"$out/console.txt"
rm -rf "$out/esp"
mkdir -p "$out/esp"
if mdir -i "$img" ::/baretop >/dev/null 2>&1; then
  # (bounded: a corrupt directory could make the recursion endless)
  timeout 60 mcopy -s -n -i "$img" ::/baretop "$out/esp/" || echo "qemu/run.sh: copying \\baretop out failed" >&2
fi

if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  echo "qemu/run.sh: timed out after ${timeout_s}s" >&2
  exit 124
fi
[ "$show" = 1 ] && echo "qemu/run.sh: console in $out/console.txt, files from the ESP in $out/esp/" >&2
if [ $rc -eq 0 ]; then
  exit 0
fi
if [ $((rc % 2)) -eq 1 ]; then
  exit $(((rc - 1) / 2))
fi
echo "qemu/run.sh: QEMU failed (exit $rc):" >&2
cat "$out/qemu.err" >&2
exit 125

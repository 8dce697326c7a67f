#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~55s
# Secure Boot enforced: Debian ovmf's snakeoil pair (OVMF_CODE_4M.snakeoil.fd
# and a copy of OVMF_VARS_4M.snakeoil.fd: the snakeoil key in PK, KEK and db,
# /usr/share/doc/ovmf/README.Debian) on q35 with SMM (qemu/run.sh
# --secure-boot). Apps are signed with that key (PkKek-1-snakeoil.key,
# passphrase "snakeoil") by boot/sign.sh, the signing step of
# boot/install.sh --sign.
#   signed: baretop signed runs a signed -x application, records the
#     Secure Boot variables (SecureBoot 1, SetupMode 0: a PK is enrolled;
#     AuditMode and DeployedMode absent: EDK2 does not implement the UEFI
#     2.5 audit and deployed modes, so Debian's OVMF defines neither),
#     prints them, and hands over to a signed loader;
#   refused: an unsigned -x application (LoadImage: EFI_ACCESS_DENIED) and
#     an unsigned --then chainload: loader are refused, each saying so with
#     the variables; the run still ends, its results written (the failed
#     workload in them, exit status 1) before the hand-over is tried;
#   unsigned: baretop itself unsigned is refused by the firmware ("Access
#     Denied") and never runs;
#   next entry: --then next-boot-entry (efi/boot-entry.c, after EDK2's
#     BmBoot.c EfiBootManagerBoot) whose next entry is OVMF's own for a
#     second disk holding the unsigned loader: refused, skipped with no
#     BootNext and no reset (restarts allowed: qemu/run.sh --reboot; an
#     extra reset would show as another boot). The varstore is the one the
#     signed boot left (persistent NVRAM: qemu/run.sh --vars), where OVMF
#     created that entry; tests/suite/76-qemu-next-entry-bds.sh has the
#     same hand-over without Secure Boot.
#   platform recovery: every BootOrder entry refused (the only one, OVMF's
#     entry for a disk given bootindex 0 in QEMU, holds an unsigned loader:
#     with a fw_cfg boot order OVMF keeps only matching entries and deletes
#     the rest, QemuBootOrderLib.c BootOrderComplete/PruneBootVariables),
#     so BDS runs PlatformRecovery0000, \EFI\BOOT\BOOTX64.EFI on each file
#     system in turn until one returns EFI_SUCCESS (BdsEntry.c
#     ProcessLoadOptions; BmLoadOption.c EfiBootManagerProcessLoadOption),
#     with no BootCurrent: baretop (signed) with --run every-boot --then
#     reboot, then the OS stand-in on a third disk. Counted over the series
#     (tests/suite/lib/boot_series.py: QEMU restarts on resets): resets <=
#     measurements, the OS within 2 boots of the last measurement, no time
#     bound (before: a reset at every boot, 16 in 90 s, the OS never reached);
#   shim: Debian's shim 16.1 (shim-unsigned, signed here with the snakeoil
#     key) with its NX policy on (MokPolicy = 1 in the store, a boot-services
#     variable under shim's GUID: mok.c) starts baretop (NX_COMPAT, signed)
#     as its second stage \EFI\BOOT\grubx64.efi, which hands over to the OS
#     stand-in; the same image with the bit cleared is refused ("Policy
#     requires NX, but image does not support NX": pe-relocate.c
#     read_header). Skipped when shim-unsigned is not installed.
# The two series run beside the boots above, one QEMU each (--smp 1).
# boot/sign.sh refuses a wrong passphrase and an image with bytes after its
# last section (sbsign's gap warning). Skipped (77) when the snakeoil files
# are not installed.
set -uo pipefail
code=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd
tmpl=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
key=/usr/share/ovmf/PkKek-1-snakeoil.key
cert=/usr/share/ovmf/PkKek-1-snakeoil.pem
for f in "$code" "$tmpl" "$key" "$cert"; do
  [ -f "$f" ] || { echo "skipped: $f is absent (Debian's ovmf package ships the Secure Boot test key and firmware)"; exit 77; }
done
out=build/qemu/secure-boot
rm -rf "$out"
mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# ---- signing through the project's own path
sign() { bash boot/sign.sh --key "$key" --cert "$cert" --passin pass:snakeoil "$@"; }
for app in build/baretop.efi build/tests/spin-workload.efi build/tests/fake-os-loader.efi; do
  s=$out/$(basename "$app" .efi)-signed.efi
  if sign "$app" "$s" >"$out/sign.log" 2>&1; then
    ok "boot/sign.sh $app: $(cat "$out/sign.log")"
  else
    bad "boot/sign.sh $app: $(cat "$out/sign.log")"
  fi
done
bash boot/sign.sh --key "$key" --cert "$cert" --passin pass:wrong build/baretop.efi "$out/x.efi" \
  >/dev/null 2>"$out/neg.err" && bad "a wrong passphrase signs?" ||
  ok "wrong passphrase refused: $(head -1 "$out/neg.err")"
{ cat build/baretop.efi; head -c 4096 /dev/zero; } >"$out/gap.efi"
sign "$out/gap.efi" "$out/x.efi" >/dev/null 2>"$out/neg.err" && bad "an image with a gap signs?" ||
  { grep -q 'gaps between PE/COFF sections' "$out/neg.err" &&
    ok "bytes after the last section refused: $(head -1 "$out/neg.err")" ||
    bad "gap: $(head -1 "$out/neg.err")"; }

# ---- PlatformRecovery and shim, counted over series (beside the boots below)
series_part() {
  local series=(python3 tests/suite/lib/boot_series.py)
  local checks=(--check 'resets<=measurements' --check os-within=2 --check poweroff-on-measuring
                --check 'nvram-per-boot<=2' --check no-timeout)
  disk() { # IMG LABEL LOADER: a disk whose \EFI\BOOT\BOOTX64.EFI is LOADER
    dd if=/dev/zero of="$1" bs=1M count=8 status=none
    mformat -i "$1" -v "$2" :: && mmd -i "$1" ::/EFI ::/EFI/BOOT && mcopy -i "$1" "$3" ::/EFI/BOOT/BOOTX64.EFI
  }
  disk "$out/rec-refused.img" REFUSED build/tests/fake-os-loader.efi
  disk "$out/rec-os.img" OSDISK "$out/fake-os-loader-signed.efi"
  "${series[@]}" --out "$out/recovery" --power-ons 1 --timeout 90 "${checks[@]}" -- --secure-boot \
    --efi "$out/baretop-signed.efi" --args "--run=every-boot --then=reboot --no-workloads" \
    --qemu-arg -drive --qemu-arg "if=none,id=refused,format=raw,file=$out/rec-refused.img" \
    --qemu-arg -device --qemu-arg virtio-blk-pci,drive=refused,bootindex=0 \
    --qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$out/rec-os.img"
  local c=$out/recovery/power-on-1.txt
  grep -q 'BdsDxe: failed to load Boot0001 .*Access Denied' "$c" && ! grep -q 'BdsDxe: starting Boot.*Non-Block' "$c" &&
    grep -q 'started by platform-recovery' "$c" && grep -q 'fake-os-loader: BootCurrent absent' "$c" &&
    ok "platform recovery: BootOrder's only entry refused, baretop started by PlatformRecovery (no BootCurrent), then the OS stand-in the same way" ||
    bad "platform recovery: not the PlatformRecovery path: $(grep -E 'BdsDxe|started by|BootCurrent' "$c" | head -5 | tr '\n' '|')"

  local shim=/usr/lib/shim/shimx64.efi
  if [ ! -f "$shim" ]; then
    echo "skip shim: $shim absent (Debian's shim-unsigned, tools/setup.sh)"; return
  fi
  # shim's own image has bytes after its last section (sbsign warns; its
  # build's, not ours): signed with sbsign directly, with the key decrypted
  openssl pkey -in "$key" -passin pass:snakeoil -out "$out/snakeoil.key" 2>/dev/null &&
    sbsign --key "$out/snakeoil.key" --cert "$cert" --output "$out/shim-signed.efi" "$shim" >/dev/null 2>&1 ||
    { bad "shim: signing $shim failed"; return; }
  python3 - "$tmpl" "$out/vars-mokpolicy.fd" build/baretop.efi "$out/baretop-no-nx.efi" <<'PY'
import struct, sys
sys.path.insert(0, 'tests/suite/lib')
import ovmf_varstore as o
tmpl, store, img, no_nx = sys.argv[1:5]
b = o.set_variable(open(tmpl, 'rb').read(), 'MokPolicy', '605dab50-e046-4300-abb6-3dd810dd8b23', 3, bytes([1]))
open(store, 'wb').write(b)
d = bytearray(open(img, 'rb').read())
opt = struct.unpack_from('<I', d, 0x3C)[0] + 24
struct.pack_into('<H', d, opt + 70, struct.unpack_from('<H', d, opt + 70)[0] & ~0x100)
open(no_nx, 'wb').write(d)
PY
  sign "$out/baretop-no-nx.efi" "$out/baretop-no-nx-signed.efi" >/dev/null 2>&1 || bad "shim: signing the NX-cleared copy"
  cp "$out/vars-mokpolicy.fd" "$out/vars-shim-refused.fd"
  bash qemu/run.sh --secure-boot --smp 1 --out "$out/shim-refused" --vars "$out/vars-shim-refused.fd" \
    --efi "$out/shim-signed.efi" --add "$out/baretop-no-nx-signed.efi=/EFI/BOOT/grubx64.efi" \
    --timeout 90 --until 'Policy requires NX|bare-metal Top-Down' --no-unattended --args "--no-workloads" \
    >/dev/null 2>"$out/shim-refused.err"
  c=$out/shim-refused/console.txt
  grep -q 'Policy requires NX, but image does not support NX' "$c" && ! grep -q 'bare-metal Top-Down' "$c" &&
    ok "shim: its NX policy on (MokPolicy 1), baretop without NX_COMPAT refused: $(grep -m1 'Policy requires NX' "$c")" ||
    bad "shim: the image without NX_COMPAT was not refused: $(grep -vE '^ ' "$c" | head -8 | tr '\n' '|')"
  "${series[@]}" --out "$out/shim" --vars-from "$out/vars-mokpolicy.fd" --power-ons 1 --timeout 90 \
    "${checks[@]}" -- --secure-boot --efi "$out/shim-signed.efi" \
    --add "$out/baretop-signed.efi=/EFI/BOOT/grubx64.efi" --args "--run=once --no-workloads" \
    --qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$out/rec-os.img"
  c=$out/shim/power-on-1.txt
  # what started it, as the console and the results say (shim 16.1 installs
  # SHIM_LOCK on a handle of its own, shim.c install_shim_protocols)
  grep -q '^boot          .*, started by shim;' "$c" &&
    ok "shim: baretop names shim as what started it" ||
    bad "shim: baretop does not name shim as what started it: $(grep -m1 -o 'started by [a-z-]*' "$c")"
  grep -q '^results       .baretop.results.000001.json' "$c" && grep -q 'start_image() returned Not started' "$c" &&
    ok "shim: baretop with NX_COMPAT ran under the NX policy as shim's second stage, measured, and returned to shim (Not started)" ||
    bad "shim: baretop did not run under shim: $(grep -vE '^ ' "$c" | head -8 | tr '\n' '|')"
  # A configuration error hands over as "not started" too: shim 16.1 starts
  # its default loader, \grubx64.efi (baretop itself here), after
  # EFI_INVALID_PARAMETER (shim.c init_grub, "falling back to default
  # loader"), which ran baretop twice in one boot.
  "${series[@]}" --out "$out/shim-usage" --vars-from "$out/vars-mokpolicy.fd" --power-ons 1 --timeout 90 \
    "${checks[@]}" -- --secure-boot --efi "$out/shim-signed.efi" --no-unattended \
    --add "$out/baretop-signed.efi=/EFI/BOOT/grubx64.efi" --args "--run=once -w alu-chain" \
    --qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$out/rec-os.img"
  c=$out/shim-usage/power-on-1.txt
  local runs; runs=$(grep -c "no workload 'alu-chain'" "$c")
  [ "$runs" = 1 ] && ! grep -q 'falling back to default loader' "$c" &&
    grep -q 'start_image() returned Not started' "$c" && grep -q 'fake-os-loader: started' "$c" &&
    ok "shim: a configuration error returned as Not started: baretop ran once, shim did not fall back, the OS stand-in followed" ||
    bad "shim: configuration error: baretop ran $runs time(s): $(grep -E 'start_image|falling back|no workload' "$c" | head -4 | tr '\n' '|')"
}

# ---- the boots
boot() { # NAME EXPECTED-STATUS RUN.SH-ARGS...
  local name=$1 want=$2; shift 2
  local t0=$(date +%s) rc
  bash qemu/run.sh --secure-boot --out "$out/$name" --timeout 300 "$@" >/dev/null 2>"$out/$name.err"
  rc=$?
  echo "     $name: exit status $rc in $(( $(date +%s) - t0 ))s"
  [ "$rc" -eq "$want" ] && return 0
  bad "$name: exit status $rc, expected $want"; tail -15 "$out/$name/console.txt"; return 1
}
json() { # NAME PYTHON-EXPRESSION-ON-r: true on the boot's first results file
  python3 -c "import json, sys; r = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" \
    "$out/$1/esp/baretop/results/000001.json" 2>/dev/null
}
enforced="enforced (SecureBoot=1 SetupMode=0 AuditMode absent DeployedMode absent)"
sb_vars="r['machine']['secure_boot'] == {'present': True, 'enforced': True, 'SecureBoot': 1, 'SetupMode': 0, 'AuditMode': 'absent', 'DeployedMode': 'absent', 'summary': '$enforced'}"

# The second disk of the next-entry boot (the unsigned loader as its
# removable-media path) is there from the signed boot on, so the firmware
# creates its boot option in that boot's varstore.
disk=$out/second-disk.img
dd if=/dev/zero of="$disk" bs=1M count=8 status=none
mformat -i "$disk" -v SECOND ::
mmd -i "$disk" ::/EFI ::/EFI/BOOT
mcopy -i "$disk" build/tests/fake-os-loader.efi ::/EFI/BOOT/BOOTX64.EFI
disk_args=(--qemu-arg -drive --qemu-arg "if=virtio,format=raw,file=$disk")
series_part >"$out/series.out" 2>&1 &
series_pid=$!

spin="-x \\tools\\spin.efi 1000"
boot signed 0 --efi "$out/baretop-signed.efi" --no-unattended --timeout 240 "${disk_args[@]}" \
  --vars "$out/signed/vars.fd" \
  --add "$out/spin-workload-signed.efi=/tools/spin.efi" \
  --add "$out/fake-os-loader-signed.efi=/EFI/os/loader.efi" \
  --args "--then chainload:\\EFI\\os\\loader.efi $spin"
c=$out/signed/console.txt
grep -q '^done          exit status 0' "$c" && ok "signed: baretop ran to its end under Secure Boot (exit status 0)" ||
  bad "signed: no 'done exit status 0'"
grep -qxF "secure boot   $enforced" "$c" && ok "signed: console: secure boot   $enforced" ||
  bad "signed: console: $(grep -m1 '^secure boot' "$c")"
json signed "$sb_vars" && ok "signed: results machine.secure_boot: every variable as read, enforced" ||
  bad "signed: results secure_boot: $(json signed False; python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"]["secure_boot"])' "$out/signed/esp/baretop/results/000001.json" 2>&1)"
json signed "[(w['name'], w['state'], w['params']) for w in r['run']['workloads']] == [('\\\\tools\\\\spin.efi', 'ran', '1000')] and r['result']['exit_status'] == 0" &&
  ok "signed: the signed -x application ran (results: state ran, exit status 0)" || bad "signed: workloads"
grep -q 'fake-os-loader: started' "$c" && ok "signed: the signed loader was started (--then chainload:)" ||
  bad "signed: the signed loader did not start"

# The refusals with one CPU: with two, OVMF's SMM rendezvous spins while a
# vCPU waits for the host (a whole-suite run: 80 CPU s for this step against
# 42); the signed boot keeps QEMU's two.
boot refused 0 --efi "$out/baretop-signed.efi" --smp 1 --no-unattended \
  --until 'then-boot: LoadImage.*refused|No bootable option' \
  --add "build/tests/spin-workload.efi=/tools/spin.efi" \
  --add "build/tests/fake-os-loader.efi=/EFI/os/loader.efi" \
  --args "--then chainload:\\EFI\\os\\loader.efi $spin"
c=$out/refused/console.txt
json refused "[w['state'] for w in r['run']['workloads']] == ['failed'] and 'EFI_ACCESS_DENIED: refused by the firmware\'s image policy' in r['run']['workloads'][0]['reason'] and r['run']['workloads'][0]['reason'].endswith('$enforced') and r['result']['exit_status'] == 1 and '1 workload(s) failed' in r['result']['messages']" &&
  ok "refused: results: the unsigned -x application failed, refused by Secure Boot, naming the variables; exit status 1" ||
  bad "refused: -x: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["workloads"])' "$out/refused/esp/baretop/results/000001.json" 2>&1 | head -c 600)"
json refused "$sb_vars" && ok "refused: results written, with the Secure Boot variables" || bad "refused: results"
line=$(grep -m1 'spin.efi.*refused by the firmware' "$c")
[ -n "$line" ] && grep -qF "$enforced" <<<"$line" && ok "refused: console: $line" ||
  bad "refused: no console line for the -x refusal"
line=$(grep -m1 'then-boot.*refused by the firmware' "$c")
[ -n "$line" ] && grep -qF "$enforced" <<<"$line" && ok "refused: console: $line" ||
  bad "refused: no console line for the chainload refusal"
grep -q 'fake-os-loader: started' "$c" && bad "refused: the unsigned loader ran" ||
  ok "refused: the unsigned loader did not run"

boot unsigned 0 --efi build/baretop.efi --smp 1 --until 'No bootable option|Press any key' --args "--no-workloads"
c=$out/unsigned/console.txt
line=$(grep -m1 'failed to load Boot.*Access Denied' "$c")
[ -n "$line" ] && ok "unsigned: the firmware refuses it: $line" || bad "unsigned: no 'Access Denied' from the firmware"
grep -q '^baretop ' "$c" && bad "unsigned: baretop ran" || ok "unsigned: baretop never started"
[ -e "$out/unsigned/esp/baretop/results/000001.json" ] && bad "unsigned: results written?" ||
  ok "unsigned: no results"

# ---- --then next-boot-entry: the next entry's image is refused
bo() { python3 tests/suite/lib/boot_options.py "$@"; }
guid_hex=4eac0881119f594d850ee21a522c59b2   # OVMF's auto-create GUID 8108ac4e-9f11-4d59-850e-e21a522c59b2 as stored
mkdir -p "$out/nbe"
cp "$out/signed/vars.fd" "$out/nbe/vars.fd"; cp "$out/signed/esp.img" "$out/nbe/esp.img"
num=$(bo "$out/nbe/vars.fd" list | awk -v g=$guid_hex '$1 != "0001" && $3 == g {print $1; exit}')
bo "$out/nbe/vars.fd" order "1,$num"
printf 'echo shell-marker\r\nreset -s\r\n' >"$out/nbe/startup.nsh"
# --smp 1, as the step that has the same hand-over without Secure Boot
boot nbe 0 --efi "$out/baretop-signed.efi" --smp 1 --vars "$out/nbe/vars.fd" --keep-esp --reboot --no-unattended \
  --timeout 240 "${disk_args[@]}" --add "$out/nbe/startup.nsh=/startup.nsh" --until 'No bootable option' \
  --args "--then=next-boot-entry --no-workloads"
c=$out/nbe/console.txt
cnt() { grep -cF -- "$1" "$c"; }
[ -n "$num" ] && grep -qF 'secure boot   enforced' "$c" && grep -qF "next-boot-entry: Boot$num" "$c" &&
  grep -qF 'skipped, no BootNext (the firmware refuses it too)' "$c" && ! grep -qF 'BootNext=' "$c" &&
  ! grep -qF 'fake-os-loader: started' "$c" &&
  ok "next entry: Secure Boot enforced: Boot$num's unsigned loader refused, skipped with no BootNext" ||
  bad "next entry: Boot${num:-?} (OVMF's entry for the second disk) not refused and skipped as expected"
[ "$(cnt 'BdsDxe: loading Boot0001')" = 1 ] && grep -qF "BdsDxe: failed to load Boot$num" "$c" &&
  ok "next entry: no extra reset: BDS loaded baretop's Boot0001 once ($(cnt 'BdsDxe: loading Boot0001')), then refused Boot$num itself" ||
  bad "next entry: BDS loaded Boot0001 $(cnt 'BdsDxe: loading Boot0001') time(s); failed to load Boot${num:-?}: $(cnt "BdsDxe: failed to load Boot$num")"

wait "$series_pid"
cat "$out/series.out"
grep -q '^FAIL' "$out/series.out" && fail=1
bash tests/suite/lib/esp-results-schema.sh "$out" || fail=1
exit $fail

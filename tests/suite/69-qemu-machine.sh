#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~19s
# The results' "machine" section in QEMU + OVMF, checked field by field
# against what QEMU is told with -smbios (tests/qemu/check-machine.py):
#   boot 1: the default pc machine (SMBIOS 2.x 32-bit entry point), types
#     0, 1 (with a UUID: run_id starts with it), 2, 4, 17, one socket;
#   boot 2: q35 with smbios-entry-point-type=64 (the SMBIOS 3 entry point),
#     two sockets, type 1 without a UUID (QEMU then writes zeros: the run id
#     falls back to the serial), OVMF's own type 0.
# The ACPI FPDT: OVMF as Debian builds it publishes none, so the section
# must say so (present false, with the reason); were one published, its
# record would be checked present instead. Boot 2 plants an FPDT of its own
# with QEMU's -acpitable (OVMF adds it to the XSDT), whose pointer record
# names 0x5000000, and an FBPT there with -device loader (planted by the
# test, not OVMF's): the walk RSDP -> XSDT -> FPDT -> FBPT must find the
# record and report its times (ExitBootServices 0: null). Boot Loader Interface: not
# started by a BLI loader, so absent with a reason. Secure Boot: OVMF.fd's
# variable store holds no platform key, so the firmware is in setup mode
# (UEFI 2.10 32.3: SetupMode 1, SecureBoot 0), not enforcing; EDK2 does not
# implement the audit and deployed modes (AuditMode, DeployedMode absent). A wrong expectation
# must make the checker fail (negative case).
set -uo pipefail
out=build/qemu/machine
mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }
check=tests/qemu/check-machine.py
fail=0
boot() { # NAME ARGS...: one boot with --no-workloads, results in $out/NAME
  local name=$1; shift
  local t0=$(date +%s)
  bash qemu/run.sh --out "$out/$name" --timeout 60 --args "--no-workloads" "$@" \
    >/dev/null 2>"$out/$name.err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: exit status $rc"; tail -15 "$out/$name/console.txt"; fail=1; return 1
  fi
  echo "     $name: booted in $(( $(date +%s) - t0 ))s"
}
uuid=8d1a6c4e-2f3b-4c5d-9e8f-0123456789ab
if boot pc --smp 2 --mem 512 \
  --qemu-arg -smbios --qemu-arg "type=0,vendor=Acme BIOS Co,version=1.2.3-test,date=11/24/2026" \
  --qemu-arg -smbios --qemu-arg "type=1,manufacturer=Acme Systems,product=RackBox 9000,version=rev-B,serial=SN-0042-XYZ,uuid=$uuid,sku=SKU-77,family=Racks" \
  --qemu-arg -smbios --qemu-arg "type=2,manufacturer=Acme Boards,product=MB-42,version=v3,serial=BRD-123" \
  --qemu-arg -smbios --qemu-arg "type=4,sock_pfx=SOCKET,manufacturer=Acme CPU,version=Acme Zen 99,max-speed=3600,current-speed=2400" \
  --qemu-arg -smbios --qemu-arg "type=17,speed=2933"; then
  cat >"$out/pc.expect" <<JSON
{"machine.smbios.present": true,
 "machine.smbios.bios.vendor": "Acme BIOS Co", "machine.smbios.bios.version": "1.2.3-test",
 "machine.smbios.bios.release_date": "11/24/2026",
 "machine.smbios.system.manufacturer": "Acme Systems", "machine.smbios.system.product": "RackBox 9000",
 "machine.smbios.system.version": "rev-B", "machine.smbios.system.serial": "SN-0042-XYZ",
 "machine.smbios.system.uuid": "$uuid", "machine.smbios.system.sku": "SKU-77",
 "machine.smbios.system.family": "Racks",
 "machine.smbios.board.manufacturer": "Acme Boards", "machine.smbios.board.product": "MB-42",
 "machine.smbios.board.version": "v3", "machine.smbios.board.serial": "BRD-123",
 "machine.smbios.processors.0.socket": "SOCKET 0", "machine.smbios.processors.0.manufacturer": "Acme CPU",
 "machine.smbios.processors.0.version": "Acme Zen 99",
 "machine.smbios.processors.0.max_speed_mhz": 3600, "machine.smbios.processors.0.current_speed_mhz": 2400,
 "machine.smbios.processors.0.core_count": 2, "machine.smbios.processors.0.thread_count": 2,
 "machine.smbios.memory.total_mib": 512, "machine.smbios.memory.dimms_populated": 1,
 "machine.smbios.memory.dimm_slots": 1, "machine.smbios.memory.speed_mts": 2933,
 "machine.boot_loader_interface.present": false,
 "machine.secure_boot.present": true, "machine.secure_boot.enforced": false,
 "machine.secure_boot.SecureBoot": 0, "machine.secure_boot.SetupMode": 1,
 "machine.secure_boot.AuditMode": "absent", "machine.secure_boot.DeployedMode": "absent",
 "run_id_prefix": "$uuid"}
JSON
  python3 "$check" "$out/pc/esp/baretop/results/000001.json" "$out/pc.expect" >"$out/pc.check" || fail=1
  echo "$(grep -c '^ok' "$out/pc.check") fields ok, $(grep -c '^FAIL' "$out/pc.check") wrong (pc, SMBIOS $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["machine"]["smbios"]["version"], d["machine"]["smbios"]["entry_point"])' "$out/pc/esp/baretop/results/000001.json"))"
  grep '^FAIL' "$out/pc.check"
  # Negative case: one wrong expectation must fail the checker.
  sed 's/"SN-0042-XYZ"/"SN-0042-XYW"/' "$out/pc.expect" >"$out/pc.wrong"
  if python3 "$check" "$out/pc/esp/baretop/results/000001.json" "$out/pc.wrong" >/dev/null; then
    echo "FAIL the checker accepted a wrong serial number"; fail=1
  else
    echo "ok   the checker rejects a wrong serial number (negative case)"
  fi
  grep -q "^machine       Acme Systems RackBox 9000, serial SN-0042-XYZ, uuid $uuid" "$out/pc/console.txt" \
    && echo "ok   the console names the machine" || { echo "FAIL console machine line"; fail=1; }
fi
# FPDT (ACPI 6.x 5.2.23.4): header, then record type 0, length 16, revision
# 1, the FBPT pointer at offset 8 of the record; checksum over the 52 bytes.
# FBPT (5.2.23.5): "FBPT", length, then the basic boot performance data
# record: type 2, length 48, revision 2, five UINT64 times from offset 8.
python3 - "$out/fpdt.bin" "$out/fbpt.bin" <<'PY'
import struct, sys
t = bytearray(52)
t[0:4] = b'FPDT'; t[4:8] = struct.pack('<I', 52); t[8] = 1
t[10:16] = b'BTTEST'; t[16:24] = b'BARETOP '; t[24:28] = struct.pack('<I', 1)
t[36:38] = struct.pack('<H', 0); t[38] = 16; t[39] = 1; t[44:52] = struct.pack('<Q', 0x5000000)
t[9] = (-sum(t)) & 0xff
open(sys.argv[1], 'wb').write(t)
b = bytearray(56)
b[0:4] = b'FBPT'; b[4:8] = struct.pack('<I', 56); b[8] = 2; b[10] = 48; b[11] = 2
b[16:56] = struct.pack('<QQQQQ', 111111111, 222222222, 333333333, 0, 0)
open(sys.argv[2], 'wb').write(b)
PY
if boot q35 --smp 2,sockets=2 --mem 256 --qemu-arg -machine --qemu-arg q35,smbios-entry-point-type=64 \
  --qemu-arg -acpitable --qemu-arg "file=$out/fpdt.bin" \
  --qemu-arg -device --qemu-arg "loader,file=$out/fbpt.bin,addr=0x5000000,force-raw=on" \
  --qemu-arg -smbios --qemu-arg "type=1,manufacturer=Other Co,product=Q,serial=Q35 SERIAL/7"; then
  cat >"$out/q35.expect" <<JSON
{"machine.smbios.present": true, "machine.smbios.entry_point": "64-bit (_SM3_)",
 "machine.smbios.system.manufacturer": "Other Co", "machine.smbios.system.serial": "Q35 SERIAL/7",
 "machine.smbios.system.uuid": null,
 "machine.smbios.processors.0.socket": "CPU 0", "machine.smbios.processors.1.socket": "CPU 1",
 "machine.smbios.processors.1.core_count": 1,
 "machine.smbios.memory.total_mib": 256,
 "machine.fpdt.present": true, "machine.fpdt.reset_end_ns": 111111111,
 "machine.fpdt.os_loader_load_image_start_ns": 222222222,
 "machine.fpdt.os_loader_start_image_start_ns": 333333333,
 "machine.fpdt.exit_boot_services_entry_ns": null, "machine.fpdt.exit_boot_services_exit_ns": null,
 "run_id_prefix": "sn-Q35_SERIAL_7"}
JSON
  python3 "$check" "$out/q35/esp/baretop/results/000001.json" "$out/q35.expect" >"$out/q35.check" || fail=1
  echo "$(grep -c '^ok' "$out/q35.check") fields ok, $(grep -c '^FAIL' "$out/q35.check") wrong (q35, SMBIOS 3 entry point, serial fallback of the run id, the planted FPDT and FBPT read)"
  grep '^FAIL' "$out/q35.check"
  # OVMF's own type 0 (QEMU was given none): some vendor, not null.
  python3 - "$out/q35/esp/baretop/results/000001.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
v = d['machine']['smbios']['bios']['vendor']
if not v:
    print('FAIL no BIOS vendor from OVMF type 0'); sys.exit(1)
print('ok   OVMF type 0: vendor %r, version %r' % (v, d['machine']['smbios']['bios']['version']))
PY
fi
# OVMF's own FPDT: present with a record, or absent with a reason.
for name in pc; do
  f=$out/$name/esp/baretop/results/000001.json
  [ -f "$f" ] || continue
  python3 - "$f" "$name" <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))['machine']['fpdt']
if f['present']:
    ok = isinstance(f.get('reset_end_ns'), int) and f['reset_end_ns'] > 0
    print('%s %s: FPDT published, ResetEnd %s ns' % ('ok  ' if ok else 'FAIL', sys.argv[2], f.get('reset_end_ns')))
else:
    ok = 'FPDT' in f.get('reason', '')
    print('%s %s: no FPDT, and the results say why: %s' % ('ok  ' if ok else 'FAIL', sys.argv[2], f.get('reason')))
sys.exit(0 if ok else 1)
PY
done
bash tests/suite/lib/esp-results-schema.sh "$out" || fail=1
exit $fail

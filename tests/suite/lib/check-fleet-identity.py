#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fleet identity with planted cases (tests/suite/72-fleet.sh): machines
that share a placeholder SMBIOS UUID are not merged, and two files of one
run id are counted once with a word.

  check-fleet-identity.py BARETOP_HOST FLEET_DIR WORK_DIR

From two results files of gen-fleet.py's fleet (FLEET_DIR), WORK_DIR/ident
gets five machines whose SMBIOS facts are edited as real boards ship them:
  a, b  AMI's template UUID 03000200-0400-0500-0006-000700080009 (the value
        AMI's firmware leaves on boards of many vendors), real and different
        system serials, different firmware and microcode;
  c, d  the same UUID with every serial left at "Default string": only the
        firmware (c 1.10, d 2.00) and microcode tell them apart;
  e     an all-zero UUID (SMBIOS 3.x 7.2.1: "present but not set"), system
        serial "To Be Filled By O.E.M.", a real board serial;
  f, g  one UUID not on any placeholder list (a vendor's own template, say)
        with two real serials: merged, as their UUIDs say, but named;
and a copy of a's file in another folder (the same run copied off two
ESPs), and a file of b's run id with other contents.
Expected, from those rules and not from the tool: 6 machines keyed
serial:/serial:/uuid-placeholder:/uuid-placeholder:/board:/uuid:, 7 runs, the two
extra files named with the file their run id was stored from, and the
shared UUID named (4 machines). Importing the folder again names nothing.
"""
import copy, glob, json, os, re, sqlite3, subprocess, sys

bin_, fleet, work = sys.argv[1:4]
AMI = '03000200-0400-0500-0006-000700080009'
src = sorted(glob.glob(os.path.join(fleet, 'esp-0000', 'baretop', 'results', '*.json')))[0]
base = json.load(open(src))
d = os.path.join(work, 'ident')
os.makedirs(os.path.join(d, 'copy'))
fail = 0


def bad(msg):
    global fail
    print('FAIL ' + msg)
    fail = 1


def machine(name, uuid, serial, board_serial, fw, ucode):
    doc = copy.deepcopy(base)
    smb = doc['machine']['smbios']
    smb['system']['uuid'] = uuid
    smb['system']['serial'] = serial
    smb['board']['serial'] = board_serial
    smb['bios']['version'] = fw
    doc['cpu']['microcode'] = ucode
    doc['run_id'] = f'ident-{name}'
    path = os.path.join(d, f'{name}.json')
    json.dump(doc, open(path, 'w'))
    return doc, path


a, pa = machine('a', AMI, 'SIM-A-0001', 'SIMB-A', 'SIM-FW 1.10', '0x000000f0')
b, pb = machine('b', AMI.upper(), 'SIM-B-0002', 'SIMB-B', 'SIM-FW 2.00', '0x000000f4')
c, pc = machine('c', AMI, 'Default string', 'Default string', 'SIM-FW 1.10', '0x000000f0')
e_, pd = machine('d', AMI, 'Default string', 'Default string', 'SIM-FW 2.00', '0x000000f4')
e, pe = machine('e', '00000000-0000-0000-0000-000000000000', 'To Be Filled By O.E.M.', 'SIMB-E',
                'SIM-FW 1.10', '0x000000f0')
SHARED = '5a1e0000-1111-4222-8333-444455556666'
machine('f', SHARED, 'SIM-F-0006', 'SIMB-F', 'SIM-FW 1.10', '0x000000f0')
machine('g', SHARED, 'SIM-G-0007', 'SIMB-G', 'SIM-FW 1.10', '0x000000f0')
copied = os.path.join(d, 'copy', 'a.json')
open(copied, 'w').write(open(pa).read())
other = copy.deepcopy(b)
other['run']['workloads'] = other['run']['workloads'][:1]
other_p = os.path.join(d, 'copy', 'b-edited.json')
json.dump(other, open(other_p, 'w'))

db = os.path.join(work, 'ident.db')
r = subprocess.run([bin_, 'fleet', d, '--db', db, '--quiet'], capture_output=True, text=True)
con = sqlite3.connect(db)
keys = sorted(k for (k,) in con.execute('SELECT machine_key FROM machines'))
man, prod = base['machine']['smbios']['system']['manufacturer'], base['machine']['smbios']['system']['product']
bman, bprod = base['machine']['smbios']['board']['manufacturer'], base['machine']['smbios']['board']['product']
want = sorted([f'serial:{man}/{prod}/SIM-A-0001', f'serial:{man}/{prod}/SIM-B-0002',
               f'board:{bman}/{bprod}/SIMB-E', f'uuid:{SHARED}'])
placeholders = [k for k in keys if k.startswith(f'uuid-placeholder:{AMI}/')]
if sorted(set(keys) - set(placeholders)) != want or len(placeholders) != 2:
    bad(f'machines {keys}: want {want} and two uuid-placeholder:{AMI}/... keys (c and d)')
else:
    print(f'ok   6 machines: a and b by serial, c and d by firmware and microcode under the shared '
          f'placeholder ({placeholders[0].split("/")[0]}/...), e by board serial, f and g one by their UUID')
clash = f'g.json: SMBIOS UUID {SHARED} (serial SIM-G-0007) is also the UUID of serial SIM-F-0006'
if clash not in r.stderr:
    bad(f'a UUID two machines share is not named: {r.stderr[:500]}')
else:
    print(f'ok   a UUID not on the list that two serials share is named: {SHARED} (SIM-F-0006, SIM-G-0007)')
runs = con.execute('SELECT COUNT(*) FROM runs').fetchone()[0]
named = [m for m in (f'{copied}: run id ident-a is already stored from {pa}: counted once',
                     f'{other_p}: run id ident-b is already stored from {pb}: counted once')
         if m not in r.stderr]
if runs != 7 or named or '2 with the run id of another file' not in r.stdout:
    bad(f'same run id: {runs} runs (want 7), not named on stderr: {named}; stdout {r.stdout[:300]}')
else:
    print('ok   two files with a run id already stored: counted once, each named with the file it was stored from')
if not re.search(rf'^shared UUID   {AMI} \(4 machines\): a placeholder', r.stdout, re.M):
    bad(f'the shared UUID is not named: {r.stdout[:600]}')
else:
    print(f'ok   the shared UUID is named: {AMI} (4 machines)')
r2 = subprocess.run([bin_, 'fleet', d, '--db', db, '--quiet'], capture_output=True, text=True)
again = [l for l in r2.stderr.splitlines() if 'counted once' in l]
if len(again) != 2 or not all(l.split(': run id')[0].endswith((copied, other_p)) for l in again) \
        or ' 0 imported, 7 already' not in r2.stdout:
    bad(f'importing again: {r2.stdout[:200]} {r2.stderr[:300]}')
else:
    print('ok   importing the folder again: 0 imported, only the two extra files named again')
sys.exit(fail)

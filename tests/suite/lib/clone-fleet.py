#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Grows a SIMULATED fleet made by gen-fleet.py into many machines, for
tests/suite/87-fleet-postgres.sh.

  clone-fleet.py SRC_DIR OUT_DIR N_MACHINES SEED

SRC_DIR is gen-fleet.py's output (replayed runs of the simulated PMU, one
folder per machine). Every machine of OUT_DIR gets the results files of the
first source machine (esp-0000: not gen-fleet's outlier, not its regressed
firmware) with a new identity (SMBIOS serial SIMC-NNNN,
a seeded UUID, run ids of its own), firmware version j % 3, microcode j % 2,
and every Top-Down node value multiplied by its own factor, uniform within
+-2 % (the machines' spread). The last machine is the planted outlier: its
DRAM_Bound is 40 % larger. Every document keeps "simulated": true. Prints a
JSON description (machines, the outlier's key, files) on stdout.
"""
import glob, json, os, random, sys, uuid

src, out, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
FIRMWARE = ['SIM-FW 1.10', 'SIM-FW 1.20', 'SIM-FW 2.00']
MICROCODE = ['0x000000f0', '0x000000f4']
rng = random.Random(seed)
base = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(src, 'esp-0000', 'baretop', 'results', '*.json')))]
# the node values to vary, with their values in the source file
values = [[(node, node['value']) for w in doc['run']['workloads']
           for node in w.get('counted', {}).get('tree', {}).get('nodes', {}).values()
           if isinstance(node.get('value'), (int, float))] for doc in base]
names = [[name for w in doc['run']['workloads']
          for name, node in w.get('counted', {}).get('tree', {}).get('nodes', {}).items()
          if isinstance(node.get('value'), (int, float))] for doc in base]
keys, files = [], 0
for j in range(n):
    uid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    d = os.path.join(out, f'esp-{j:04d}', 'baretop', 'results')
    os.makedirs(d)
    for k, doc in enumerate(base):
        doc['run_id'] = f'{uid}-{k + 1:06d}'
        sm = doc.setdefault('machine', {}).setdefault('smbios', {})
        if not sm.get('present'):   # a hosted run has no SMBIOS: give it the fleet's
            sm.update({'present': True, 'version': '3.3',
                       'bios': {'vendor': 'SIMULATED firmware vendor', 'release_date': '01/02/2026'},
                       'system': {'manufacturer': 'SIMULATED machine (baretop fleet test)', 'product': 'SIM-1000'}})
        sm['system']['uuid'] = uid
        sm['system']['serial'] = f'SIMC-{j:04d}'
        sm['bios']['version'] = FIRMWARE[j % 3]
        doc['cpu']['microcode'] = MICROCODE[j % 2]
        for (node, v), name in zip(values[k], names[k]):
            f = 1 + rng.uniform(-0.02, 0.02)
            if j == n - 1 and name == 'DRAM_Bound':
                f = 1.40
            node['value'] = v * f
        json.dump(doc, open(os.path.join(d, f'{k + 1:06d}.json'), 'w'))
        files += 1
    keys.append('uuid:' + uid)
json.dump({'machines': keys, 'outlier': keys[-1], 'files': files}, sys.stdout)

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small SIMULATED fleet for tests/suite/37-wrong-inputs.sh.

  gen-small-fleet.py BARETOP_HOST OUT_DIR params|mad0

8 machines (SMBIOS serial SIM-000N, seeded UUIDs), one results file each,
made from one `run --sim=skl -w ptr-chase-l2` by copying it:
  params: machine 0 ran ptr-chase-l2 at size=64MiB, the others at the
          default size; every node value gets +-1 % noise;
  mad0:   every machine has the same values except machine 7, whose
          Backend_Bound is 10 % lower (a MAD of 0 with one machine apart).
"""
import json, os, subprocess, sys, uuid, random
bin, out, mode = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out + '.base', exist_ok=True)
def run(w, d):
    subprocess.run([bin, 'run', '--sim=skl', '--quick', '-q', '--reps', '1', '--warmups', '0', '--level', '2', '-w', w, '--results-dir', d], check=True, capture_output=True)
    return json.load(open(os.path.join(d, sorted(f for f in os.listdir(d) if f.endswith('.json'))[-1])))
small = run('ptr-chase-l2', out + '.base')
big = run('ptr-chase-l2:size=64MiB', out + '.base') if mode == 'params' else None
rng = random.Random(7)
for i in range(8):
    doc = json.loads(json.dumps(big if (mode == 'params' and i == 0) else small))
    uid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    doc['run_id'] = f'{uid}-000001'
    doc['machine'] = {'smbios': {'present': True, 'version': '3.3',
        'bios': {'vendor': 'SIMULATED', 'version': 'FW 1', 'release_date': '01/02/2026'},
        'system': {'manufacturer': 'SIMULATED', 'product': 'SIM', 'version': None, 'serial': f'SIM-{i:04d}',
                   'uuid': uid, 'sku': None, 'family': None},
        'board': {'manufacturer': 'SIMULATED', 'product': 'B', 'version': None, 'serial': f'B-{i}'},
        'processors': [], 'memory': {'total_mib': 1, 'dimms_populated': 1, 'dimm_slots': 1, 'speed_mts': 1}},
        'fpdt': {'present': False, 'reason': 'SIMULATED', 'reset_end_ns': None},
        'boot_loader_interface': {'present': False}}
    nodes = doc['run']['workloads'][0]['counted']['tree']['nodes']
    for k, v in nodes.items():
        if isinstance(v.get('value'), (int, float)):
            if mode == 'params':
                v['value'] *= 1 + rng.uniform(-0.01, 0.01)
            elif i == 7 and k == 'Backend_Bound':
                v['value'] *= 0.9
    d = os.path.join(out, f'm{i}')
    os.makedirs(d, exist_ok=True)
    json.dump(doc, open(os.path.join(d, '000001.json'), 'w'))

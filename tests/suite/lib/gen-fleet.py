#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes a SIMULATED fleet of baretop results files, for `baretop-host fleet`
(tests/suite/72-fleet.sh).

  gen-fleet.py BARETOP_HOST OUT_DIR [--machines N] [--seed S]

OUT_DIR gets one folder per machine (esp-NNNN/baretop/results/NNNNNN.json,
one file per workload: 2 x 26 machines by default); the count files go to
OUT_DIR.work.

Every file comes from a real `baretop-host run --sim=skl --counts FILE` of
the simulated PMU; only the count file differs per machine. Then the
machine's SMBIOS section and run id are added to the document, as the EFI
app writes them on a real machine ("run_id", "machine"), and cpu.microcode
is set. Every document says "simulated": true (the run does), and the SMBIOS
strings say SIMULATED too.

The machines: serial SIM-NNNN, a random UUID (seeded), one of 3 firmware
versions (i % 3) and 2 microcode revisions (i % 2); Secure Boot enforced
except on every fourth machine (i % 4 == 1: setup mode). Per-machine noise is a
memory latency factor, uniform within +-3 % (machines of one model whose
memory parts differ within their specification: a bounded spread, so an
ordinary machine lies at most about 2 MADs from the fleet; with a normal
spread the largest of a few dozen machines is 2.5 sigma out and, with the
MAD itself estimated from those few dozen, crosses the limit now and then,
which is the rule working, not a fault): the machine's DRAM stall cycles
are that much longer; then every count gets its own noise
(sigma 0.2 % for cycle counts, 0.02 % for counts of instructions, uops and
loads, which a fixed instruction stream repeats almost exactly). Counts
that nest (NESTED: the cycles of one condition within those of a wider
one) get their noise as nested increments, so every machine keeps the
nesting the hardware guarantees: independent noise on two equal counts
(STALLS_L1D_MISS = STALLS_MEM_ANY for a DRAM pointer chase, THREAD_ANY =
THREAD with an idle sibling) made the inner one exceed the outer on about
half the machines, and a node that is their clamped difference (L1_Bound)
read exactly 0 there and count noise elsewhere, which no median/MAD
describes. The outlier machine (the last one) has 40 % more DRAM stall
cycles: the same mechanism far outside the fleet's spread. Firmware
SIM-FW 2.00 is a regression: its machines' DRAM stalls are 5 % longer, too
little for any one of them to stand out, enough for their group.

Also written: two files of an older baretop (no "machine", no "run_id"),
one truncated file and one malformed one (a node value that is a string).
Prints a JSON description (machines, the outlier's key, the bad files) on
stdout for the test to check against.
"""
import argparse, concurrent.futures, copy, glob, json, os, random, subprocess, sys, uuid

WORKLOADS = ['multiply1', 'ptr-chase-dram']
FIRMWARE = ['SIM-FW 1.10', 'SIM-FW 1.20', 'SIM-FW 2.00']
MICROCODE = ['0x000000f0', '0x000000f4']
# A firmware regression: every machine on this version gets 5 % longer DRAM
# stalls, too little to single out any one of them, enough for the group.
REGRESSED, REGRESSION = 'SIM-FW 2.00', 0.05
# The stall-cycle events a longer DRAM latency lengthens (SDM vol. 3B,
# CYCLE_ACTIVITY.*: STALLS_L3_MISS is within STALLS_L2_MISS, within
# STALLS_L1D_MISS, within STALLS_MEM_ANY, within STALLS_TOTAL, within the
# clocks), so each gets the same added cycles and the nesting holds.
DRAM_CYCLES = ['CYCLE_ACTIVITY.STALLS_L3_MISS', 'CYCLE_ACTIVITY.STALLS_L2_MISS',
               'CYCLE_ACTIVITY.STALLS_L1D_MISS', 'CYCLE_ACTIVITY.STALLS_MEM_ANY',
               'CYCLE_ACTIVITY.STALLS_TOTAL', 'CPU_CLK_UNHALTED.THREAD', 'CPU_CLK_UNHALTED.REF_TSC',
               'CPU_CLK_UNHALTED.THREAD_ANY', 'OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD']
# Counts of cycles that nest, innermost first (SDM vol. 3B, Skylake events:
# CYCLE_ACTIVITY.STALLS_* each within the next, all within the thread's
# unhalted clocks, which are within THREAD_ANY's cycles of either thread;
# UOPS_EXECUTED.CORE_CYCLES_GE_3 within GE_2 within GE_1; a thread's
# INT_MISC.RECOVERY_CYCLES within RECOVERY_CYCLES_ANY's).
NESTED = [['CYCLE_ACTIVITY.STALLS_L3_MISS', 'CYCLE_ACTIVITY.STALLS_L2_MISS', 'CYCLE_ACTIVITY.STALLS_L1D_MISS',
           'CYCLE_ACTIVITY.STALLS_MEM_ANY', 'CYCLE_ACTIVITY.STALLS_TOTAL', 'CPU_CLK_UNHALTED.THREAD',
           'CPU_CLK_UNHALTED.THREAD_ANY'],
          ['UOPS_EXECUTED.CORE_CYCLES_GE_3', 'UOPS_EXECUTED.CORE_CYCLES_GE_2', 'UOPS_EXECUTED.CORE_CYCLES_GE_1'],
          ['INT_MISC.RECOVERY_CYCLES', 'INT_MISC.RECOVERY_CYCLES_ANY']]


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f'gen-fleet: {" ".join(cmd)} failed ({r.returncode}): {r.stderr[-500:]}')
    return r


def perturb(counts, rng, dram_extra):
    c = dict(counts)
    delta = dram_extra * counts.get('CYCLE_ACTIVITY.STALLS_L3_MISS', 0)
    for e in DRAM_CYCLES:
        if e in c:
            c[e] = c[e] + delta
    noisy = lambda e, v: v * (1 + rng.gauss(0, 0.002 if timed(e) else 0.0002))
    out = {}
    for chain in NESTED:
        inner, outer = 0, 0.0
        for e in (e for e in chain if e in c):
            if c[e] < inner:
                sys.exit(f'gen-fleet: {e} {c[e]} below the {inner} it contains: the nesting does not hold')
            outer += noisy(e, c[e] - inner)
            inner = c[e]
            out[e] = max(0, int(round(outer)))
    for e, v in c.items():
        if e not in out:
            out[e] = max(0, int(round(noisy(e, v))))
    return out


def timed(event):
    """Counts of cycles vary from run to run (clocks, stalls, queue
    occupancy); counts of instructions, uops and loads of a fixed instruction
    stream barely do."""
    return any(w in event for w in ('CYCLE', 'CLK', 'STALL', 'PORTS_UTIL', 'BOUND_ON', 'PEND_MISS',
                                    'NOT_DELIVERED', 'OUTSTANDING', 'DIVIDER_ACTIVE', 'SQ_FULL'))


def machine_section(i, uid, fw):
    return {
        'smbios': {
            'present': True, 'version': '3.3',
            'bios': {'vendor': 'SIMULATED firmware vendor', 'version': fw, 'release_date': '01/02/2026'},
            'system': {'manufacturer': 'SIMULATED machine (baretop fleet test)', 'product': 'SIM-1000',
                       'version': None, 'serial': f'SIM-{i:04d}', 'uuid': uid, 'sku': None,
                       'family': None},
            'board': {'manufacturer': 'SIMULATED', 'product': 'SIM-BOARD', 'version': None,
                      'serial': f'SIMB-{i:04d}'},
            'processors': [{'socket': 'CPU0', 'manufacturer': 'SIMULATED', 'version': 'simulated Skylake',
                            'max_speed_mhz': 3000, 'current_speed_mhz': 2100, 'core_count': 2,
                            'thread_count': 2}],
            'memory': {'total_mib': 16384, 'dimms_populated': 2, 'dimm_slots': 4, 'speed_mts': 2666},
        },
        'fpdt': {'present': False, 'reason': 'SIMULATED machine: no ACPI FPDT', 'reset_end_ns': None},
        'boot_loader_interface': {'present': False},
        'secure_boot': secure_boot_section(i),
    }


def secure_boot_enforced(i):
    """Every fourth machine runs with no platform key (setup mode): Secure
    Boot off; the others enforce it."""
    return i % 4 != 1


def secure_boot_section(i):
    on = secure_boot_enforced(i)
    return {'present': True, 'enforced': on, 'SecureBoot': 1 if on else 0, 'SetupMode': 0 if on else 1,
            'AuditMode': 'absent', 'DeployedMode': 'absent',
            'summary': 'SIMULATED ' + ('enforced' if on else 'setup mode')}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('bin')
    ap.add_argument('out')
    ap.add_argument('--machines', type=int, default=26)
    ap.add_argument('--seed', type=int, default=72)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = a.out.rstrip('/') + '.work'   # count files and the base run: outside OUT_DIR
    os.makedirs(work)
    os.makedirs(a.out)
    # base counts: one run of the simulated PMU, turned into count files
    run([a.bin, 'run', '--sim=skl', '--quick', '-q'] + sum((['-w', w] for w in WORKLOADS), []) +
        ['--results-dir', os.path.join(work, 'base')])
    run([a.bin, 'counts', os.path.join(work, 'base', '000001.json'), '--out-dir', work])
    # named RESULTS-wK-WORKLOAD-cpuN.json: N is whichever CPU ran it
    base = {w: json.load(open(glob.glob(os.path.join(work, f'000001-w{k}-{w}-cpu*.json'))[0]))
            for k, w in enumerate(WORKLOADS)}

    machines, jobs = [], []
    outlier = a.machines - 1
    for i in range(a.machines):
        uid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        latency = rng.uniform(-0.03, 0.03)
        if FIRMWARE[i % 3] == REGRESSED:
            latency += REGRESSION
        extra = 0.40 if i == outlier else latency
        m = {'i': i, 'uuid': uid, 'firmware': FIRMWARE[i % 3], 'microcode': MICROCODE[i % 2],
             'secure_boot': int(secure_boot_enforced(i)),
             'dir': os.path.join(a.out, f'esp-{i:04d}', 'baretop', 'results')}
        machines.append(m)
        for w in WORKLOADS:
            cf = copy.deepcopy(base[w])
            cf['counts'] = perturb(base[w]['counts'], rng, extra)
            cf['kind'] = 'SIMULATED fleet machine: perturbed counts of the simulated PMU'
            path = os.path.join(work, f'counts-{i:04d}-{w}.json')
            json.dump(cf, open(path, 'w'), indent=1)
            jobs.append((m['dir'], w, path))

    # one machine's runs in order (sequence numbers), machines in parallel
    def machine_runs(d):
        for jd, w, path in jobs:
            if jd == d:
                run([a.bin, 'run', '--sim=skl', '--quick', '-q', '-w', w, '--counts', path, '--results-dir', d])
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as ex:
        list(ex.map(machine_runs, [m['dir'] for m in machines]))

    files = 0
    for m in machines:
        for name in sorted(os.listdir(m['dir'])):
            if not name.endswith('.json'):
                continue
            p = os.path.join(m['dir'], name)
            doc = json.load(open(p))
            assert doc['simulated'] is True
            doc['run_id'] = f"{m['uuid']}-{doc['sequence']:06d}-{doc['time']['firmware_clock']}"
            doc['machine'] = machine_section(m['i'], m['uuid'], m['firmware'])
            doc['cpu']['microcode'] = m['microcode']
            tmp = p + '.tmp'
            json.dump(doc, open(tmp, 'w'), indent=1)
            os.replace(tmp, p)
            files += 1

    # an older baretop's files: no machine section, no run id
    old = os.path.join(a.out, 'old-machine')
    # (counted from a count file too, with the fleet's noise, so its values
    # belong to the same fleet: the run's own clock constants would not)
    for w in WORKLOADS:
        cf = copy.deepcopy(base[w])
        cf['counts'] = perturb(base[w]['counts'], rng, 0)
        path = os.path.join(work, f'counts-old-{w}.json')
        json.dump(cf, open(path, 'w'), indent=1)
        run([a.bin, 'run', '--sim=skl', '--quick', '-q', '-w', w, '--counts', path, '--results-dir', old])
    # baretop writes "machine" and "run_id" since results format 2: take them
    # out again, as an older baretop (format 1) wrote its files
    for name in sorted(os.listdir(old)):
        p = os.path.join(old, name)
        if not name.endswith('.json'):
            continue
        doc = json.load(open(p))
        doc.pop('machine', None)
        doc.pop('run_id', None)
        doc['format_version'] = 1
        json.dump(doc, open(p, 'w'), indent=1)
    files += 2
    bad = os.path.join(a.out, 'bad')
    os.makedirs(bad)
    src = open(os.path.join(machines[0]['dir'], '000001.json'), 'rb').read()
    truncated = os.path.join(bad, '000007.json')
    open(truncated, 'wb').write(src[:len(src) // 2])
    doc = json.loads(src)
    nodes = doc['run']['workloads'][0]['counted']['tree']['nodes']
    nodes[next(iter(nodes))]['value'] = 'not a number'
    doc['run_id'] = 'malformed-run'
    malformed = os.path.join(bad, '000008.json')
    json.dump(doc, open(malformed, 'w'))
    json.dump({'machines': [{'key': 'uuid:' + m['uuid'], **m} for m in machines],
               'outlier': 'uuid:' + machines[outlier]['uuid'], 'good_files': files,
               'old_dir': old, 'truncated': truncated, 'malformed': malformed,
               'workloads': WORKLOADS, 'regressed_firmware': REGRESSED}, sys.stdout, indent=1)


main()

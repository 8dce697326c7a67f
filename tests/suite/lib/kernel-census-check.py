#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the known-count kernels' declared counts (`kernel-census declare`)
with what valgrind's cachegrind counted in each kernel body (one
`kernel-census run 1|2` per size, --cache-sim=yes --branch-sim=yes), at both
sizes, exactly. Used by tests/suite/36-kernel-census.sh.

  kernel-census-check.py DECLARE CG1 CG2 [--perturb KERNEL:COUNT:DELTA]...

What cachegrind counts, and how a declaration maps onto it (established on
this valgrind, 3.19, from the kernels themselves: `empty` is one RET and has
Bi = 0; a REP MOVSB of n bytes has Ir = n + 1 for the REP):
  Ir = instructions + rep_iterations   valgrind runs a REP string instruction
                                       once per element plus the final RCX = 0
                                       check, and counts each run (silicon
                                       retires it once: rep_instructions);
  Bc = cond + rep_iterations + rep_instructions
                                       each of those runs is a conditional
                                       branch to valgrind;
  Bi = indirect                        indirect JMP and CALL; not RET;
  Dr = loads, Dw = stores              one per instruction that reads / writes
                                       data memory (RET reads, CALL writes);
                                       a REP counts per element, so the REP
                                       kernels declare neither.
Also, with cachegrind's own branch-predictor model (a simulation, not a
CPU): random_cond > 0 needs Bcm within random_cond/4..3*random_cond/4, a
kernel with random_cond = 0 and cond > 1000 needs Bcm <= 1 % of cond.
--perturb adds DELTA to one declared count (both sizes): the negative case
that shows the check can fail. Exit 1 on any mismatch.
"""
import sys

def parse_declare(path):
    kernels, skips = {}, {}
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == 'kernel':
            kernels[w[1]] = {'sym': w[2], 'n': (int(w[3]), int(w[4])), 'c': {}}
        elif w[0] == 'count':
            kernels[w[1]]['c'][w[2]] = (int(w[3]), int(w[4]))
        elif w[0] == 'skip':
            skips[w[1]] = ' '.join(w[2:])
    return kernels, skips

def parse_cg(path):
    events, per_fn, fn = None, {}, None
    for line in open(path):
        if line.startswith('events:'):
            events = line.split()[1:]
        elif line.startswith('fn='):
            fn = line[3:].strip()
            per_fn.setdefault(fn, [0] * len(events))
        elif fn and line[:1].isdigit():
            vals = [int(v) for v in line.split()[1:]]
            for i, v in enumerate(vals):
                per_fn[fn][i] += v
    return {f: dict(zip(events, v)) for f, v in per_fn.items()}

def expected(c, i):
    """Cachegrind's events predicted from the declaration at size index i."""
    g = lambda name: c[name][i] if name in c else None
    rep_it, rep_in = g('rep_iterations') or 0, g('rep_instructions') or 0
    out = {}
    if g('instructions') is not None:
        out['Ir'] = g('instructions') + rep_it
    if g('cond') is not None:
        out['Bc'] = g('cond') + rep_it + rep_in
    if g('indirect') is not None:
        out['Bi'] = g('indirect')
    if g('loads') is not None:
        out['Dr'] = g('loads')
    if g('stores') is not None:
        out['Dw'] = g('stores')
    return out

def main():
    args = sys.argv[1:]
    perturb = []
    while '--perturb' in args:
        k = args.index('--perturb')
        kern, count, delta = args[k + 1].split(':')
        perturb.append((kern, count, int(delta)))
        del args[k:k + 2]
    kernels, skips = parse_declare(args[0])
    for name in skips:
        kernels.pop(name, None)
    cgs = [parse_cg(args[1]), parse_cg(args[2])]
    for kern, count, delta in perturb:
        v = kernels[kern]['c'][count]
        kernels[kern]['c'][count] = (v[0] + delta, v[1] + delta)
    fail = 0
    print(f"{'kernel':18} {'n1':>6} {'n2':>6}  cachegrind at n1 / n2 (= declared)")
    for name, k in kernels.items():
        if 'instructions' not in k['c']:
            print(f"FAIL {name}: declares no instruction count"); fail = 1
            continue
        cols = []
        for ev in ('Ir', 'Bc', 'Bi', 'Dr', 'Dw'):
            got, want = [], []
            for i in (0, 1):
                counted = cgs[i].get(k['sym'])
                if counted is None:
                    print(f"FAIL {name}: cachegrind saw no function {k['sym']} at n{i + 1}")
                    fail = 1
                    break
                e = expected(k['c'], i)
                if ev in e:
                    got.append(counted[ev]); want.append(e[ev])
            if len(got) == 2:
                ok = got == want
                cols.append(f"{ev} {got[0]}/{got[1]}" + ("" if ok else f" (declared {want[0]}/{want[1]}) MISMATCH"))
                if not ok:
                    fail = 1
        rc = k['c'].get('random_cond', (0, 0))
        cond = k['c'].get('cond', (0, 0))
        for i in (0, 1):
            bcm = cgs[i].get(k['sym'], {}).get('Bcm')
            if bcm is None:
                continue
            if rc[i] > 0 and not (rc[i] / 4 <= bcm <= 3 * rc[i] / 4):
                cols.append(f"Bcm {bcm} outside {rc[i] / 4:.0f}..{3 * rc[i] / 4:.0f} MISMATCH"); fail = 1
            elif rc[i] > 0 and i == 1:
                b1 = cgs[0][k['sym']]['Bcm']
                cols.append(f"Bcm {b1}/{bcm} (sim. predictor; in R/4..3R/4)")
            elif rc[i] == 0 and 'random_cond' in k['c'] and cond[i] > 1000 and bcm > cond[i] / 100:
                cols.append(f"Bcm {bcm} > 1% of {cond[i]} MISMATCH"); fail = 1
            elif rc[i] == 0 and 'random_cond' in k['c'] and i == 1:
                b1 = cgs[0][k['sym']]['Bcm']
                cols.append(f"Bcm {b1}/{bcm} (sim. predictor; <= 1% of cond)")
        status = 'FAIL' if any('MISMATCH' in c for c in cols) else 'ok  '
        print(f"{status} {name:18} {k['n'][0]:>6} {k['n'][1]:>6}  " + ', '.join(cols))
    for name, why in skips.items():
        print(f"skip {name}: {why}")
    return fail

if __name__ == '__main__':
    sys.exit(main())

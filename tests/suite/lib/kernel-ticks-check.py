#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the known-count kernels' declared instruction counts
(`kernel-census declare`) with the TSC ticks baretop.efi printed with
--kernel-ticks under QEMU -icount shift=0,sleep=off, where the TSC advances
exactly one tick per executed instruction. Used by tests/suite/56-kernel-icount.sh.

  kernel-ticks-check.py DECLARE CONSOLE [--shift S] [--perturb KERNEL:COUNT:DELTA]...

With -icount shift=S each instruction advances the virtual clock 2^S ns,
and the TSC (read from that clock) 2^S ticks: every tick count below is
divided by 2^S, which must divide it exactly.

Every window is the same code (bt_time_workload: RDTSC, call the body,
RDTSC), so for every kernel k at size n, exactly and with min = max:
    ticks(k, n) - ticks(empty) = emulated(k, n) - instructions(empty)
    emulated = instructions + rep_iterations
(QEMU TCG executes a REP string instruction once per element plus the final
RCX = 0 check, as valgrind does; silicon retires it once). ticks(empty) - 1
(its RET) is the window's foreign-instruction count. Every kernel of the
table must be timed, or skipped for a missing ISA. Exit 1 on any mismatch.
"""
import sys

def main():
    args = sys.argv[1:]
    perturb = []
    per = 1
    if '--shift' in args:
        k = args.index('--shift')
        per = 1 << int(args[k + 1])
        del args[k:k + 2]
    while '--perturb' in args:
        k = args.index('--perturb')
        perturb.append(args[k + 1].split(':'))
        del args[k:k + 2]
    decl, order = {}, []
    for line in open(args[0]):
        w = line.split()
        if w and w[0] == 'kernel':
            decl[w[1]] = {'n': (int(w[3]), int(w[4])), 'c': {}}
            order.append(w[1])
        elif w and w[0] == 'count':
            decl[w[1]]['c'][w[2]] = (int(w[3]), int(w[4]))
    for kern, count, delta in perturb:
        v = decl[kern]['c'][count]
        decl[kern]['c'][count] = (v[0] + int(delta), v[1] + int(delta))
    ticks, skips, done, cpu = {}, {}, False, ''
    for line in open(args[1], errors='replace'):
        w = line.split()
        if not w:
            continue
        if w[0] == 'kernel-ticks' and len(w) == 6:
            t = (int(w[3]), int(w[4]), int(w[5]))
            if t[0] % per or t[1] % per:
                print(f"FAIL {w[1]} n={w[2]}: {t[0]}..{t[1]} ticks is not a multiple of {per}")
                return 1
            ticks[(w[1], int(w[2]))] = (t[0] // per, t[1] // per, t[2])
        elif w[0] == 'kernel-ticks-skip':
            skips[w[1]] = ' '.join(w[2:])
        elif w[0] == 'kernel-ticks-error':
            print(f"FAIL {w[1]}: {' '.join(w[2:])}")
            return 1
        elif w[0] == 'kernel-ticks-done':
            done = True
        elif w[0] == 'kernel-ticks-cpu':
            cpu = ' '.join(w[1:])
    if not done:
        print("FAIL the guest did not finish --kernel-ticks")
        return 1
    print(f"guest: {cpu}; {per} tick(s) per instruction (-icount shift={per.bit_length() - 1})")
    fail = 0
    e1, e2 = ticks.get(('empty', 1)), ticks.get(('empty', 2))
    if not e1 or not e2 or e1[0] != e1[1] or e1 != e2:
        print(f"FAIL the empty body's ticks vary: {e1} {e2}")
        return 1
    empty = e1[0]
    empty_insts = decl['empty']['c']['instructions'][0]
    print(f"window: the empty body (RET) takes {empty * per} ticks = {empty} instructions: "
          f"{empty - empty_insts} foreign "
          f"instructions between the two RDTSC reads, the same in every window")
    print(f"{'kernel':18} {'n1':>6} {'n2':>6}  (ticks-empty)/2^S at n1 / n2 = declared (instructions"
          f" + rep_iterations - 1)")
    for name in order:
        k = decl[name]
        if name in skips:
            if 'AVX' not in skips[name] and 'FMA' not in skips[name]:
                print(f"FAIL {name}: skipped for another reason than a missing ISA: {skips[name]}")
                fail = 1
            else:
                print(f"skip {name}: {skips[name]}")
            continue
        got, want, spread = [], [], []
        for i in (0, 1):
            t = ticks.get((name, k['n'][i]))
            if t is None:
                print(f"FAIL {name}: not timed at n={k['n'][i]}")
                fail = 1
                break
            spread.append(t[0] == t[1])
            got.append(t[0] - empty)
            want.append(k['c']['instructions'][i] + k['c'].get('rep_iterations', (0, 0))[i]
                        - empty_insts)
        if len(got) < 2:
            continue
        ok = got == want and all(spread)
        fail |= not ok
        note = '' if ok else (f' (declared {want[0]}/{want[1]})' if got != want else ' (min != max)')
        print(f"{'ok  ' if ok else 'FAIL'} {name:18} {k['n'][0]:>6} {k['n'][1]:>6}  "
              f"{got[0]}/{got[1]}{note}, min = max over {t[2]} runs" if ok else
              f"FAIL {name:18} {k['n'][0]:>6} {k['n'][1]:>6}  {got[0]}/{got[1]}{note}")
    return 1 if fail else 0

if __name__ == '__main__':
    sys.exit(main())

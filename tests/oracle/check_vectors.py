#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates the Python oracle itself: it must reproduce the expected values of
the shared test vectors (../shared/testdata/tma), which two other independent
evaluators produced. usage: check_vectors.py --ref REF --cases DIR"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tma_oracle  # noqa: E402


def close(a, b):
    return abs(a - b) <= max(1e-12, 1e-9 * max(abs(a), abs(b)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ref', required=True)
    ap.add_argument('--cases', required=True)
    a = ap.parse_args()
    models, bad, n, nf = {}, 0, 0, 0
    for dp, dn, fn in sorted(os.walk(a.cases)):
        for f in sorted(fn):
            if not f.endswith('.json'):
                continue
            c = json.load(open(os.path.join(dp, f)))
            if 'expected' not in c or c.get('expected_source') == 'pmu-tools':
                continue
            mid = c['model']
            if mid not in models:
                models[mid] = tma_oracle.Model(a.ref, mid)
            got = models[mid].evaluate(c['counts'], c['retire_latency'], c['constants'])
            low = {(k[4:] if k.startswith('tma_') else k).lower(): v for k, v in got.items()}
            for grp in ('expected', 'expected_info'):
                for name, e in c[grp].items():
                    g = low.get(name.lower())
                    if g is None:
                        print('missing', f, name)
                        bad += 1
                        continue
                    n += 1
                    ev, gv = e['value'], g[0]
                    if (ev is None) != (gv is None) or (ev is not None and not close(ev, gv)):
                        bad += 1
                        print('value', mid, f, name, ev, gv)
                    if e.get('thresh') is not None:
                        nf += 1
                        if g[1] is None or bool(g[1]) != e['thresh']:
                            bad += 1
                            print('flag', mid, f, name, e['thresh'], g[1])
    print('oracle self-check: %d values, %d flags, %d problems' % (n, nf, bad))
    if n == 0:
        print('oracle self-check: no expected value was compared')
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

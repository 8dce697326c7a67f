#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The vectors' mismatches that a correction explains.

The test vectors' `expected` follows Intel's native file, defects included,
and check.py also passes pmu-tools' value where the two oracles disagree.
A node baretop corrects (`baretop-host models --corrections`) must match the
second published form, Linux perf's conversion; where pmu-tools gives
something else for its own reasons (its 0 for a division by zero), neither
value in the case is that form. This script takes check.py's --json report
and accepts a mismatch only when the node is one baretop corrects for that
model and baretop's value (and flag) equals Linux perf's form of the node,
evaluated here from the case's counts by tests/oracle/forms.py (Python, the
perf-format file). Every other mismatch stays one.

usage: second_form.py --ref REF --host build/baretop-host --cases DIR --report check.json
Exit status: 0 = no mismatch left; 1 otherwise.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forms  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ref', required=True)
    ap.add_argument('--host', default='build/baretop-host')
    ap.add_argument('--cases', required=True)
    ap.add_argument('--report', required=True)
    a = ap.parse_args()
    rep = json.load(open(a.report))
    corr = forms.baretop_corrections(a.host)
    perf = {}
    left, accepted = [], 0
    for relp, node, kind, exp, got in rep['problems']:
        c = json.load(open(os.path.join(a.cases, relp))) if os.path.exists(os.path.join(a.cases, relp)) else {}
        mid = c.get('model')
        if (mid, node) not in corr or mid not in forms.PERF_FORM or kind not in ('value', 'thresh'):
            left.append((relp, node, kind, exp, got))
            continue
        if mid not in perf:
            perf[mid] = forms.PerfForm(a.ref, mid)
        r = perf[mid].evaluate(c['counts'], c.get('retire_latency', {}), c['constants'])
        v, flag = r['tma_' + node.lower()]
        ok = forms.close(got, v) if kind == 'value' else bool(got) == bool(flag)
        if ok:
            accepted += 1
            print('second form %-40s %-40s %-6s vector %r, pmu-tools differs; baretop %r = Linux perf\'s form'
                  % (relp, node, kind, exp, got))
        else:
            left.append((relp, node, kind, exp, got))
    for p in left:
        print('MISMATCH %-28s %-40s %-8s expected=%r got=%r' % tuple(p))
    print('second form: %d mismatches of corrected nodes equal Linux perf\'s form; %d left'
          % (accepted, len(left)))
    return 1 if left else 0


if __name__ == '__main__':
    sys.exit(main())

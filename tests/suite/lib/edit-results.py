#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes results file B from results file A for the diff tests
(tests/suite/30-report-diff.sh): B is A with one workload's counts edited and its tree replaced by the
tree `baretop-host replay --json` evaluates from the edited counts (TREE.json - keeps A's tree).

  edit-results.py A.json B.json WORKLOAD TREE.json [EVENT=FACTOR ...] [--widen F]

EVENT=FACTOR multiplies that event's min, median, max and raw median in
WORKLOAD (the count file TREE.json was evaluated from must hold the same
edit). --widen F sets every event's min/max of every workload to
median*(1-F) .. median*(1+F) in B, a stand-in for run-to-run noise. Nothing
else changes: the other workloads, the plan, the checks stay A's.
"""
import json, sys

def main(argv):
    a, b, workload, tree = argv[1:5]
    edits, widen = {}, None
    rest = argv[5:]
    while rest:
        x = rest.pop(0)
        if x == '--widen':
            widen = float(rest.pop(0))
        else:
            ev, f = x.rsplit('=', 1)
            edits[ev] = float(f)
    doc = json.load(open(a))
    t = None if tree == '-' else json.load(open(tree))
    if t is not None:
        t.pop('consistency', None)
    hit = 0
    for w in doc['run']['workloads']:
        c = w.get('counted')
        if not c:
            continue
        if w['name'] == workload:
            hit += 1
            for ev, f in edits.items():
                s = c['events'][ev]          # KeyError: the event was not counted
                for k in ('min', 'median', 'max', 'raw_median'):
                    s[k] = round(s[k] * f)
            if t is not None:
                c['tree'] = t
        if widen is not None:
            for s in c['events'].values():
                s['min'] = round(s['median'] * (1 - widen))
                s['max'] = round(s['median'] * (1 + widen))
    if hit != 1:
        sys.exit(f'edit-results: workload {workload} counted {hit} times in {a}')
    json.dump(doc, open(b, 'w'), indent=1)

if __name__ == '__main__':
    main(sys.argv)

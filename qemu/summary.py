#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One screen on a results file, for `./dev.sh run`: per counted workload its
level-1 split and bottleneck path (the largest flagged node, level by level,
as the results file records it), then where the report is.

  qemu/summary.py RESULTS.json [REPORT.html]
"""
import json, sys

LEVEL1 = [('Frontend_Bound', 'FE'), ('Bad_Speculation', 'BadSpec'), ('Backend_Bound', 'BE'),
          ('Retiring', 'Ret')]


def main():
    path = sys.argv[1]
    r = json.load(open(path))
    ws = r['run']['workloads']
    sim = r.get('simulated')
    counted = [w for w in ws if w.get('counted')]
    model = counted[0]['counted']['tree']['model'] if counted else None
    print('')
    print(f"baretop first run: {len(ws)} workloads, {len(counted)} counted"
          + (f" with the {model} Top-Down model" if model else ""))
    if sim:
        print('SIMULATED: counts of baretop\'s simulated PMU (QEMU has no PMU), not measurements')
    print(f"  {'workload':19} {'FE%':>5} {'BadS%':>5} {'BE%':>5} {'Ret%':>5}  bottleneck path")
    for w in ws:
        c = w.get('counted')
        if not c:
            why = w.get('reason') or w.get('not_counted') or w.get('state')
            if isinstance(why, dict):
                why = why.get('reason') or json.dumps(why)
            print(f"  {w['name'][:19]:19} not counted: {str(why)[:58]}")
            continue
        v = c['tree']['values']
        cells = ' '.join(f"{100 * v[n]:5.1f}" if isinstance(v.get(n), (int, float)) else '    -'
                         for n, _ in LEVEL1)
        bp = '>'.join(c['tree'].get('bottleneck_path') or []) or '(nothing flagged)'
        print(f"  {w['name'][:19]:19} {cells}  {bp}")
    print(f"results   {path}")
    if len(sys.argv) > 2:
        print(f"report    {sys.argv[2]} (open it in a browser; baretop-host report --help)")


main()

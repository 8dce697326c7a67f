#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A corrected model against a sibling's native text on the same counts.

Emerald Rapids' native file (emeraldrapids_metrics.json 1.4, TMA 5.2) adds
a term for a node EMR does not have (hbm_bound) to two bottlenecks, and
Bottleneck_Other_Bottlenecks comes out short by both; baretop corrects the
three (metrics/corrections.c). Sapphire Rapids' native text of the same
TMA release (sapphirerapids_metrics.json 1.3, 5.2) has no such term. On
the counts of every shared EMR vector this script evaluates SPR's native
text with the independent evaluator (tma_oracle.py) and requires
baretop's EMR value of each corrected node (`baretop-host replay --json`
outputs) to equal it; it prints the vectors' published value (Intel's
native text: `expected_info`), baretop's and SPR's form side by side, and
requires Bottleneck_Other_Bottlenecks >= 0 on every vector whose counts
hold the tree's rules (a vector whose PERF_METRICS fields no core produces,
a zero sweep of BACKEND_BOUND under a non-zero MEMORY_BOUND, violates
them: there it must still equal SPR's form, and is printed).

usage: same_counts.py --ref REF --cases DIR --outputs DIR [--model EMR --like SPR]
Exit status: 0 = every check held; 1 otherwise.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forms  # noqa: E402
import tma_oracle  # noqa: E402

NODES = ('Bottleneck_Data_Cache_Memory_Bandwidth', 'Bottleneck_Data_Cache_Memory_Latency',
         'Bottleneck_Other_Bottlenecks')
SHOW = ('000.json', '001.json')


def fmt(v):
    return '%9.4f' % v if isinstance(v, (int, float)) else '%9s' % 'n/a'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ref', required=True)
    ap.add_argument('--cases', required=True)
    ap.add_argument('--outputs', required=True, help='replay --json outputs mirroring --cases')
    ap.add_argument('--model', default='EMR')
    ap.add_argument('--like', default='SPR')
    a = ap.parse_args()
    like = tma_oracle.Model(a.ref, a.like)
    root = os.path.join(a.cases, a.model)
    problems, rows, n, negative_ok = [], [], 0, []
    for dp, dn, fn in os.walk(root):
        dn.sort()
        for f in sorted(fn):
            if not f.endswith('.json'):
                continue
            rel = os.path.relpath(os.path.join(dp, f), a.cases)
            c = json.load(open(os.path.join(a.cases, rel)))
            out = json.load(open(os.path.join(a.outputs, rel)))
            r = like.evaluate(c['counts'], c.get('retire_latency', {}), c['constants'])
            n += 1
            for node in NODES:
                got, want = out['values'].get(node), r[node][0]
                if not forms.close(got, want):
                    problems.append('%s %s: baretop %s %r, %s native text %r on the same counts'
                                    % (rel, node, a.model, got, a.like, want))
            other = out['values'].get(NODES[2])
            held = all(v['state'] != 'violated' for v in out.get('consistency', []))
            if other is not None and other < 0:
                if held:
                    problems.append('%s: Bottleneck_Other_Bottlenecks %r < 0 with every rule held' % (rel, other))
                else:
                    negative_ok.append((rel, other))
            if os.path.relpath(rel, a.model) in SHOW:
                for node in NODES:
                    pub = (c.get('expected_info', {}).get(node) or {}).get('value')
                    rows.append((rel, node, pub, out['values'].get(node), r[node][0]))
    print('%-13s %-40s %9s %9s %9s' % ('vector', 'node', 'published', 'baretop', a.like + ' form'))
    for rel, node, pub, got, want in rows:
        print('%-13s %-40s %s %s %s' % (rel, node, fmt(pub), fmt(got), fmt(want)))
    for rel, v in negative_ok:
        print('note %s: Bottleneck_Other_Bottlenecks %.4f < 0 on counts that violate the tree\'s rules '
              '(equal to %s\'s form)' % (rel, v, a.like))
    for p in problems:
        print('FAIL', p)
    print('same counts: %d %s vectors; %s\'s %d corrected nodes equal %s\'s native text on every one; '
          'Bottleneck_Other_Bottlenecks >= 0 on every vector that holds the rules (%d that do not: printed)'
          % (n, a.model, a.model, len(NODES), a.like, len(negative_ok)) if not problems else
          'same counts: %d problems' % len(problems))
    return 1 if problems or not n else 0


if __name__ == '__main__':
    sys.exit(main())

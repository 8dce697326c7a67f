#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes what `perf stat` would print for a recording (a count file of
tests/data/tma or ../shared/testdata/tma), for `replay --perf-stat`
(tests/suite/32-perf-stat-import.sh).

  perf-from-counts.py COUNTS FORMAT EVENTS... [--intervals N] [--drop EVENT]
                      [--spell EVENT=SPELLING]

FORMAT: csv (perf stat -x,) or json (perf stat -j), laid out as
tools/perf/Documentation/perf-stat.txt documents ("CSV FORMAT", "JSON
FORMAT"; with -I a leading timestamp field, or "interval"). EVENTS: the
events perf was asked for, by the count file's names ("-" reads them one
a line from standard input): each printed with the recording's count, in
perf's lower-case spelling (the PERF_METRICS fields and TOPDOWN.SLOTS as
perf's topdown-* and slots), or SPELLING for --spell (a raw rUUEE or
cpu/event=..,umask=../). An event the recording lacks is printed as perf
prints an event it could not count, <not counted>. --drop leaves an event
out entirely. --intervals N: N intervals of 1 s, interval k holding k times
the counts (ratios, and so the tree, the same in each).
"""
import argparse, json, sys

PERF_NAMES = {
    'TOPDOWN.SLOTS': 'slots',
    'PERF_METRICS.RETIRING': 'topdown-retiring',
    'PERF_METRICS.BAD_SPECULATION': 'topdown-bad-spec',
    'PERF_METRICS.FRONTEND_BOUND': 'topdown-fe-bound',
    'PERF_METRICS.BACKEND_BOUND': 'topdown-be-bound',
    'PERF_METRICS.HEAVY_OPERATIONS': 'topdown-heavy-ops',
    'PERF_METRICS.BRANCH_MISPREDICTS': 'topdown-br-mispredict',
    'PERF_METRICS.FETCH_LATENCY': 'topdown-fetch-lat',
    'PERF_METRICS.MEMORY_BOUND': 'topdown-mem-bound',
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('counts')
    ap.add_argument('format', choices=('csv', 'json'))
    ap.add_argument('events', nargs='+')
    ap.add_argument('--intervals', type=int, default=0)
    ap.add_argument('--drop', action='append', default=[])
    ap.add_argument('--spell', action='append', default=[])
    a = ap.parse_args()
    counts = json.load(open(a.counts))['counts']
    events = [l.strip() for l in sys.stdin if l.strip()] if a.events == ['-'] else a.events
    spell = dict(s.split('=', 1) for s in a.spell)
    runtime = 1000000000
    out = []
    for k in range(1, (a.intervals or 1) + 1):
        for ev in events:
            if ev in a.drop:
                continue
            name = spell.get(ev) or PERF_NAMES.get(ev) or ev.lower()
            v = counts.get(ev)
            value = '<not counted>' if v is None else '%.0f' % (v * (k if a.intervals else 1))
            if a.format == 'csv':
                row = f'{value},,{name},{runtime if v is not None else 0},100.00,,'
                out.append((f'{k:.9f},' if a.intervals else '') + row)
            else:
                o = {}
                if a.intervals:
                    o['interval'] = float(k)
                o.update({'counter-value': value, 'unit': '', 'event': name,
                          'event-runtime': runtime if v is not None else 0, 'pcnt-running': 100.00})
                out.append(json.dumps(o, separators=(', ', ' : ')))
    print('# started on Thu Nov 26 00:00:00 2026 (written by perf-from-counts.py)\n')
    print('\n'.join(out))


main()

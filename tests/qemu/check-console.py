#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The UEFI console of a baretop run, against its results file.

  check-console.py SERIAL_LOG CONSOLE_TXT RESULTS_JSON
  check-console.py --self-test      (the checks must fail on broken input)

console.txt is serial.log without escapes (qemu/run.sh), '\\r' turned into
line breaks. For every counted workload:
  - its tree block ("baretop Top-Down analysis" .. the "CPI" line) has no
    line wider than 79 columns;
  - a bar per level-1 node: 40 cells of '#' and '.', as many '#' as the
    results file's value says (round(value * 40), clamped), the value beside;
  - progress lines ("workload I of N NAME[, level L group J of M]...") are
    there, name each workload in order with N = the number of workloads,
    count every group of the results file's steps, and none of them sits
    inside a tree block;
  - serial.log: each node row of the tree carries the attribute OVMF's
    terminal sends for SetAttribute (ESC[1m ESC[31m ESC[40m light red: the
    bottleneck path; ESC[1m ESC[33m ESC[40m yellow: flagged; none for the
    others), and the flags and path are the results file's.
"""
import json, re, sys

ESC = re.compile(r'\x1b\[[0-9;=?]*[A-Za-z]')
PATH_ATTR = '\x1b[1m\x1b[31m\x1b[40m'
FLAG_ATTR = '\x1b[1m\x1b[33m\x1b[40m'
# level, name, value, [R: the retire latency it rests on,] [mark,] [CPI share]
ROW = re.compile(r'^  (\d)\s+(\S+)\s+(-?[0-9.e+]+%|n/a|missing)(?: (?P<lat>[mgfpc]))?(?:\s+(?P<mark>\*|<==))?'
                 r'(?:\s+([0-9.]+))?$')
LATENCY_TAG = {'measured': 'm', 'given': 'g', 'file': 'f', 'published': 'p', 'cap': 'c'}
BAR = re.compile(r'^  (\S+)\s+([#.]{40})\s+(-?[0-9.e+]+%|n/a|missing)(?:\s+(\*|<==))?$')
PROGRESS = re.compile(r'^workload (\d+) of (\d+) (\S+?)(?:, level (\d+) group (\d+) of (\d+))?'
                      r'(?:, (?:time left unknown yet|.* left))?\s*$')


def tree_blocks(lines):
    """(start, end) line indexes of each tree block."""
    out, start = [], None
    for i, l in enumerate(lines):
        if l.startswith('baretop Top-Down analysis'):
            start = i
        elif start is not None and (l.startswith('CPI ') or l.startswith('CPI not')):
            out.append((start, i))
            start = None
    return out


def check(serial, console, results):
    errors, facts = [], []
    lines = console.split('\n')
    wl = [w for w in results['run']['workloads'] if w.get('counted')]
    blocks = tree_blocks(lines)
    if len(blocks) != len(wl):
        errors.append(f'{len(blocks)} tree blocks on the console, {len(wl)} counted workloads')
        return errors, facts
    widest = 0
    for (a, b), w in zip(blocks, wl):
        tree = w['counted']['tree']
        for l in lines[a:b + 1]:
            widest = max(widest, len(l))
            if len(l) > 79:
                errors.append(f'{w["name"]}: a tree line of {len(l)} columns: {l!r}')
        level1 = [n for n, d in tree['nodes'].items() if d['level'] == 1]
        bars = {}
        for l in lines[a:b + 1]:
            m = BAR.match(l)
            if m:
                bars[m.group(1)] = m.group(2)
        for n in level1:
            v = tree['values'][n]
            if n not in bars:
                errors.append(f'{w["name"]}: no bar for {n}')
                continue
            want = 0 if v is None else max(0, min(40, int(v * 40 + 0.5)))
            if bars[n].count('#') != want or bars[n] != '#' * want + '.' * (40 - want):
                errors.append(f'{w["name"]}: bar of {n} has {bars[n].count("#")} cells, '
                              f'value {v} wants {want}')
        for l in lines[a:b + 1]:
            if PROGRESS.match(l):
                errors.append(f'{w["name"]}: a progress line inside the tree: {l!r}')
    facts.append(f'{len(blocks)} trees, widest line {widest} columns; '
                 f'{sum(len([n for n, d in w["counted"]["tree"]["nodes"].items() if d["level"] == 1]) for w in wl)} bars '
                 'match the results values')

    # progress: every workload in order, every group of every step
    prog = [PROGRESS.match(l) for l in lines]
    prog = [m for m in prog if m]
    n_all = len(results['run']['workloads'])
    seen = {}
    for m in prog:
        i, n = int(m.group(1)), int(m.group(2))
        if n != n_all:
            errors.append(f'progress says {n} workloads, the run had {n_all}')
            break
        name = m.group(3)
        want_name = results['run']['workloads'][i - 1]['name']
        if not want_name.endswith(name.lstrip('.')):
            errors.append(f'progress names workload {i} {name}, it is {want_name}')
        if m.group(5):
            seen.setdefault(i, set()).add((int(m.group(4)), int(m.group(5)), int(m.group(6))))
    for k, w in enumerate(results['run']['workloads'], 1):
        if not w.get('counted'):
            continue
        want = {(s['level'], j, s['groups']) for s in w['counted']['steps'] for j in range(1, s['groups'] + 1)}
        if seen.get(k, set()) != want:
            errors.append(f'{w["name"]}: progress showed groups {sorted(seen.get(k, set()))[:5]}..., '
                          f'the steps had {sorted(want)[:5]}...')
    facts.append(f'{len(prog)} progress lines, every group of every step of {len(seen)} workloads, '
                 'none inside a tree')

    # highlighting, from the raw serial log
    raw = serial.split('\n')
    rows = 0
    hl = {'path': 0, 'flag': 0}
    expected_rows = sum(len([n for n, d in w['counted']['tree']['nodes'].items() if d.get('kind', 'tree') == 'tree' and d['level'] >= 1]) for w in wl)
    wi = -1
    for l in raw:
        plain = ESC.sub('', l).rstrip('\r')
        if plain.startswith('baretop Top-Down analysis'):
            wi += 1
        m = ROW.match(plain)
        if not m or wi < 0 or wi >= len(wl):
            continue
        tree = wl[wi]['counted']['tree']
        name = m.group(2)
        if name not in tree['nodes']:
            continue
        rows += 1
        lead = l[:len(l) - len(l.lstrip('\x1b[0123456789;m'))] if l.startswith('\x1b') else ''
        on_path = name in tree['bottleneck_path']
        flagged = bool(tree['thresh'].get(name))
        want = 'path' if on_path else 'flag' if flagged else 'normal'
        got = 'path' if lead.endswith(PATH_ATTR) else 'flag' if lead.endswith(FLAG_ATTR) else \
              'normal' if (not lead or '\x1b[31m' not in lead and '\x1b[33m' not in lead) else 'other'
        mark = m.group('mark') or ''
        lat = LATENCY_TAG.get(tree['nodes'][name].get('latency'))
        if (m.group('lat') or None) != lat:
            errors.append(f'{wl[wi]["name"]}: {name} shows R {m.group("lat")!r}, the results say {lat!r}')
        if got != want:
            errors.append(f'{wl[wi]["name"]}: {name} is shown {got} ({lead!r}), '
                          f'the results say {want}')
        if (mark == '<==') != on_path or (mark == '*') != (flagged and not on_path):
            errors.append(f'{wl[wi]["name"]}: {name} marked {mark!r}, the results say {want}')
        if got in hl:
            hl[got] += 1
    if rows != expected_rows:
        errors.append(f'{rows} node rows found in serial.log, the trees have {expected_rows} nodes')
    if rows == 0 or hl['path'] == 0 or hl['flag'] == 0:
        errors.append(f'highlighting not seen: {rows} rows, {hl}')
    facts.append(f'{rows} node rows in serial.log: {hl["path"]} light red (bottleneck path), '
                 f'{hl["flag"]} yellow (flagged), the rest plain, as the results file says')
    return errors, facts


def self_test(serial, console, results):
    """Each check must be able to fail."""
    broken = {
        'wide line': (serial, console.replace('  level node', '  level node' + ' ' * 30, 1), results),
        'bar cells': (serial, re.sub(r'#\.', '..', console, count=1), results),
        'progress in tree': (serial, console.replace('\n  level node', '\nworkload 1 of 3 x\n  level node', 1), results),
        'highlight lost': (serial.replace(PATH_ATTR, '', 3), console, results),
        'wrong flag': (serial.replace(FLAG_ATTR, PATH_ATTR, 1), console, results),
    }
    bad = 0
    for what, args in broken.items():
        errs, _ = check(*args)
        if not errs:
            print(f'FAIL self-test: the check does not see "{what}"')
            bad += 1
    return bad


def main():
    args = [a for a in sys.argv[1:] if a != '--self-test']
    serial = open(args[0], encoding='latin-1').read()
    console = open(args[1], encoding='latin-1').read()
    results = json.load(open(args[2]))
    errors, facts = check(serial, console, results)
    for e in errors[:20]:
        print('FAIL', e)
    if errors:
        sys.exit(1)
    for f in facts:
        print('ok  ', f)
    if '--self-test' in sys.argv:
        bad = self_test(serial, console, results)
        if bad:
            sys.exit(1)
        print('ok   the checker fails on a wide line, a wrong bar, a progress line in a tree, '
              'a lost highlight and a wrong one')


main()

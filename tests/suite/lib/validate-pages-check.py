#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--validate with tests/data/validate/dtlb-pages-skl.json: the DTLB-walk check's expected range follows the pages that mapped
dtlb-walk's buffer, and the report says which pages and where they were
read. The rule, written here from the kernel's walk (4 KiB + 64 bytes apart
over 16 MiB) and page_loads' definition: on 4 KiB pages every load is a page
load, so at most n + 9 walks; on 2 MiB / 1 GiB pages (8 or 9 of them) none,
so at most 9; mixed pages: the check SKIPs, saying so.
Usage: validate-pages-check.py CONSOLE SOURCE_PREFIX"""
import re
import sys


def main(path, source):
    rows = [l.rstrip('\r\n') for l in open(path, errors='replace')
            if '@dtlb-walk' in l and l.split()[1:2] and l.split()[1].startswith('event:')]
    walk = [r for r in rows if 'event=0x08,umask=0x0e' in r]
    if len(walk) != 1 or len(rows) != 2:
        print(f"FAIL dtlb-walk checks: {len(rows)} row(s), want 2")
        return 1
    r = walk[0]
    m = re.search(r'pages: ((\d+ [KMG]iB)(\.\.\d+ [KMG]iB)?|unknown) \((.*)\)\s*$', r)
    if not m or not m.group(4).startswith(source) or not all('pages: ' in x for x in rows):
        print(f"FAIL the checks do not say which pages, from {source}: {r}")
        return 1
    pages, n = m.group(1), 2000  # n: dtlb-walk's n_quick (--quick)
    verdict = r.split()[0]
    exp = re.search(r'\s(\d+)\.\.(\d+)\s', r)
    if pages == '4 KiB':
        want = f'0..{n + 9}'
    elif pages in ('2 MiB', '1 GiB', '2 MiB..1 GiB'):
        want = '0..9'
    else:
        want = None
    if want is None:
        ok = verdict == 'SKIP' and 'per page size' in r
    else:
        ok = verdict == 'PASS' and exp is not None and f'{exp.group(1)}..{exp.group(2)}' == want
    print(f"{'ok  ' if ok else 'FAIL'} dtlb-walk on {pages} pages ({m.group(4)}): "
          f"DTLB_LOAD_MISSES.WALK_COMPLETED {verdict}, expected "
          f"{exp.group(0).strip() if exp else '-'} (want {want or 'SKIP'})")
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))

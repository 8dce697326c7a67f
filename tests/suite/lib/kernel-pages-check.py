#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pages that mapped dtlb-walk's 16 MiB buffer in a --kernel-ticks run
(lines "kernel-ticks-pages dtlb-walk N BUF SMALLEST LARGEST PAGES
page_loads=V source: TEXT", app/kernel-ticks.h) against the rule written
here from the definition of page_loads (kernels/kernel.h: a load to a page
not touched for > 4000 loads) and the walk (4 KiB + 64 bytes apart over
16 MiB): every load on 4 KiB pages, none on 2 MiB / 1 GiB pages (8 or 9
pages, or 1 or 2, stay in any DTLB), not declared when mixed. The EFI build
must have read them from the page tables. Usage: kernel-pages-check.py CONSOLE"""
import sys

SIZE = {4096: '4 KiB', 2 << 20: '2 MiB', 1 << 30: '1 GiB'}


def main(path):
    ok, seen = True, 0
    for line in open(path, errors='replace'):
        w = line.split()
        if len(w) < 8 or w[0] != 'kernel-ticks-pages' or w[1] != 'dtlb-walk':
            continue
        seen += 1
        n, buf, lo, hi, pages = (int(x) for x in w[2:7])
        decl = dict(x.split('=', 1) for x in w[7:w.index('source:')] if '=' in x)
        src = line.split('source: ', 1)[1].strip()
        want = str(n) if lo == hi == 4096 else '0' if lo >= 2 << 20 else 'undeclared'
        good = (src.startswith('page tables (CR3, ') and lo in SIZE and hi in SIZE and
                buf == 16 << 20 and pages >= buf // hi and decl.get('page_loads') == want)
        ok = ok and good
        sizes = SIZE.get(lo, str(lo)) + ('' if lo == hi else '..' + SIZE.get(hi, str(hi)))
        print(f"{'ok  ' if good else 'FAIL'} dtlb-walk n={n}: its 16 MiB buffer is {pages} "
              f"page(s) of {sizes}, read from the {src}; page_loads declared "
              f"{decl.get('page_loads')} (want {want})")
    if seen != 2:
        print(f"FAIL dtlb-walk: {seen} kernel-ticks-pages line(s), want 2 (n1 and n2)")
        ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))

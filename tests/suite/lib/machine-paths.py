#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No absolute machine path in the tree (tests/suite/12-machine-paths.sh).

  machine-paths.py --self-test | machine-paths.py FILE...

A clone works wherever it is put, alone: a path into someone's home folder
or work folder in a tracked file works only on the machine it was written on.
Absolute paths are allowed under the system's own trees (/usr, /sys,
/proc, /dev, /tmp) and in these forms, which are not machine paths:
  - the destination of a file put on an ESP image, after "FILE.EXT="
    (qemu/run.sh --add build/x.efi=/tools/x.efi);
  - /boot/efi, the conventional ESP mount point in examples, and paths on
    the ESP itself: /baretop/... (baretop's folder), /EFI/...;
  - the path of an HTTP request ("POST", "/session/...": WebDriver);
  - /nonexistent/..., a path named to not exist;
  - a path continued from an expression: $(pwd)/..., ${x%/bin/...},
    ../shared/..., dir/*/...;
  - URLs (scheme://host/...), and a script's first line (#!/bin/sh).
Prints each offending line as FILE:LINE: PATH and exits 1 if there is one.
"""
import os, re, sys

ALLOWED = ('/usr/', '/sys/', '/proc/', '/dev/', '/tmp/', '/boot/efi', '/nonexistent/', '/baretop/',
           '/EFI/')
HTTP_PATH = re.compile(r'"(GET|POST|DELETE)",\s*f?"$')
# An absolute path of at least two components, not continued from a word,
# a variable, an expression, a relative path or a URL.
PATH = re.compile(r"(?<![\w.~:$}/%*)\]>-])/[A-Za-z][\w.+-]*/[\w.+-]+")
ESP_DEST = re.compile(r"\.\w+=$")


def offences(text):
    for n, line in enumerate(text.splitlines(), 1):
        if n == 1 and line.startswith('#!'):
            continue    # an interpreter line names the system's own program
        for m in PATH.finditer(line):
            p = m.group(0)
            if p.startswith(ALLOWED):
                continue
            if ESP_DEST.search(line[:m.start()]) or HTTP_PATH.search(line[:m.start()]):
                continue
            if '://' in line[max(0, m.start() - 80):m.start()] and re.search(r'\S+://\S*$', line[:m.start()]):
                continue
            yield n, p


def self_test():
    # planted paths, put together here so that this file holds none itself
    # (other checkers read the tree too)
    r = '/'
    bad = [f'ref={r}work/shared/reference/x.json', f'cd {r}home/me/baretop', f'open("{r}root/data/a.csv")',
           f'see {r}opt/vendor/tool', f'  BT_SHARED={r}srv/baretop/shared bash x']
    good = ['ls /usr/share/ovmf/OVMF.fd', 'cat /sys/firmware/efi/efivars/x', '--add a.efi=/tools/spin.efi',
            'boot/install.sh --esp /boot/efi', 'cannot read /nonexistent/other.cfg', '"$(pwd)/build/x"',
            '${0%/bin/efibootmgr}', '../shared/reference/intel', 'build/qemu/*/esp/baretop',
            'https://example.org/a/b', '/tmp/x/y', 'a/b/c', '$(BUILD)/tests/x',
            '#define DIR "/baretop/results"', 'd.s("POST", "/window/rect", {})', '#!/bin/sh']
    ok = True
    for s in bad:
        if not list(offences(s)):
            print(f'FAIL self-test: not caught: {s}'); ok = False
    for s in good:
        if list(offences(s)):
            print(f'FAIL self-test: caught though allowed: {s}'); ok = False
    if ok:
        print(f'ok   the checker catches {len(bad)} planted machine paths and allows {len(good)} other forms')
    return ok


def main():
    if sys.argv[1:] == ['--self-test']:
        sys.exit(0 if self_test() else 1)
    found = 0
    for f in sys.argv[1:]:
        # this file names machine paths as the examples it must catch
        if os.path.abspath(f) == os.path.abspath(__file__):
            continue
        try:
            text = open(f, encoding='utf-8', errors='replace').read()
        except OSError as e:
            print(f'FAIL {f}: {e}'); found += 1; continue
        if '\0' in text:
            continue
        for n, p in offences(text):
            print(f'FAIL {f}:{n}: absolute machine path {p}')
            found += 1
    if found:
        sys.exit(1)
    print(f'ok   no absolute machine path in the {len(sys.argv) - 1} tracked files '
          f'(outside /usr, /sys, /proc, /dev, /tmp)')


main()

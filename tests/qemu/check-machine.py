#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a results file's "machine" section and run_id against what QEMU was
given. Usage: check-machine.py RESULTS.json EXPECT.json

EXPECT maps dotted paths into the results document to expected values
("machine.smbios.system.serial": "SN-1"; list items by index:
"machine.smbios.processors.1.socket"). Strings compare case-insensitively
when the key ends in "uuid". "run_id_prefix": the run id must be that
prefix + "-<sequence, 6 digits>-<time.firmware_clock as YYYYMMDDThhmmss>".
Prints one line per field; exits 1 if any differs."""
import json, re, sys

def get(doc, path):
    cur = doc
    for part in path.split('.'):
        if isinstance(cur, list):
            cur = cur[int(part)]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            raise KeyError(path)
    return cur

def main():
    doc = json.load(open(sys.argv[1]))
    expect = json.load(open(sys.argv[2]))
    bad = 0
    for path, want in expect.items():
        if path == 'run_id_prefix':
            clock = doc['time']['firmware_clock'] or ''
            m = re.match(r'(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)', clock)
            when = ''.join(m.groups()[:3]) + 'T' + ''.join(m.groups()[3:]) if m else 'notime'
            want_id = '%s-%06d-%s' % (want, doc['sequence'], when)
            got, want, path = doc.get('run_id'), want_id, 'run_id'
        else:
            try:
                got = get(doc, path)
            except (KeyError, IndexError):
                got = '<missing>'
        same = got == want
        if not same and path.endswith('uuid') and isinstance(got, str) and isinstance(want, str):
            same = got.lower() == want.lower()
        print('%s %s = %r%s' % ('ok  ' if same else 'FAIL', path, got,
                                '' if same else ' (expected %r)' % (want,)))
        bad += not same
    return 1 if bad else 0

sys.exit(main())

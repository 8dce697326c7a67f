#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Boot options in an OVMF variable store file (tests/suite/lib/ovmf_varstore.py
reads the store), as the UEFI spec 2.10 3.1.3 lays out EFI_LOAD_OPTION:
UINT32 Attributes, UINT16 FilePathListLength, CHAR16 Description[] (NUL
ended), the device path list, then OptionalData. Written from the spec, not
from baretop's parser.

  boot_options.py FILE list          one line per BootOrder entry:
                                     NUMBER ATTRIBUTES OPTIONAL-HEX DESCRIPTION
  boot_options.py FILE order N,N,..  writes BootOrder
  boot_options.py FILE add N DESC PATH-KIND [OPTIONS]
                                     writes Boot<N> (ACTIVE), PATH-KIND:
                                     file:\\PATH (a file path alone); OPTIONS:
                                     its OptionalData, a UTF-16LE string with
                                     its NUL (as `efibootmgr -u` writes a
                                     Linux command line: the EFI stub reads
                                     LoadOptions as UCS-2)
"""
import struct, sys
sys.path.insert(0, __file__.rsplit('/', 1)[0])
import ovmf_varstore as o

GVAR = '8be4df61-93ca-11d2-aa0d-00e098032b8c'
END = bytes([0x7f, 0xff, 4, 0])


def parse(data):
    attr, plen = struct.unpack_from('<IH', data, 0)
    p = 6
    while data[p:p + 2] != b'\0\0':
        p += 2
    desc = data[6:p].decode('utf-16-le')
    path = data[p + 2:p + 2 + plen]
    return attr, desc, path, data[p + 2 + plen:]


def order(blob):
    raw = o.find(blob, 'BootOrder', GVAR)
    return list(struct.unpack('<%dH' % (len(raw) // 2), raw)) if raw else []


def fnode(p):
    b = (p + '\0').encode('utf-16-le')
    return struct.pack('<BBH', 4, 4, 4 + len(b)) + b


def main():
    path, cmd = sys.argv[1], sys.argv[2]
    blob = open(path, 'rb').read()
    if cmd == 'list':
        for n in order(blob):
            data = o.find(blob, 'Boot%04X' % n, GVAR)
            if data is None:
                print('%04X absent' % n)
                continue
            attr, desc, _, opt = parse(data)
            print('%04X %08x %s %s' % (n, attr, opt.hex() or '-', desc))
        return
    if cmd == 'order':
        nums = [int(x, 16) for x in sys.argv[3].split(',')]
        blob = o.set_variable(blob, 'BootOrder', GVAR, 7, struct.pack('<%dH' % len(nums), *nums))
    elif cmd == 'add':
        n, desc, kind = int(sys.argv[3], 16), sys.argv[4], sys.argv[5]
        if not kind.startswith('file:'):
            raise SystemExit('boot_options.py: PATH-KIND file:\\PATH only')
        dp = fnode(kind[5:]) + END
        d = (desc + '\0').encode('utf-16-le')
        opt = (sys.argv[6] + '\0').encode('utf-16-le') if len(sys.argv) > 6 else b''
        blob = o.set_variable(blob, 'Boot%04X' % n, GVAR, 7,
                              struct.pack('<IH', 1, len(dp)) + d + dp + opt)
    else:
        raise SystemExit('boot_options.py: list, order or add')
    open(path, 'wb').write(blob)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Does an EFI image keep what IMAGE_DLLCHARACTERISTICS_NX_COMPAT promises?

    check-pe-nx.py IMAGE.efi...

Read from the PE/COFF headers (Microsoft's PE format: the optional header's
DllCharacteristics at offset 70 of a PE32+ header, the section table
after it), not from baretop's build, the rules of Microsoft's UEFI CA
memory mitigation requirements (2022), which shim 16.1 enforces under its
NX policy (pe-relocate.c read_header: the bit; pe.c: no section both
writable and executable):

  * DllCharacteristics has NX_COMPAT (0x0100);
  * SectionAlignment is a multiple of 4096 (attributes are per page);
  * no section is both IMAGE_SCN_MEM_WRITE and IMAGE_SCN_MEM_EXECUTE, and
    the entry point lies in an executable section that is not writable;
  * relocations are not stripped (shim refuses such images);
  * every R_X86_64_RELATIVE target of the image's .rela section, and every
    target of its packed .relr section (ELF RELR, as `ld -z
    pack-relative-relocs` writes it: an even word is the offset of a
    target, an odd word a bitmap whose bit i covers the word i-1 after the
    last one, moving on by 63 words), lies in a writable section: the
    image's crt0 applies them itself (_relocate) after the firmware mapped
    the sections, so one in a read-only section would fault where the
    firmware enforces the attributes;
  * the CheckSum is the PE/COFF sum of the file.

One line per image, ok or FAIL with every finding; exit status 1 on any.
"""
import struct
import sys

NX_COMPAT = 0x0100
SCN_EXEC, SCN_READ, SCN_WRITE = 0x20000000, 0x40000000, 0x80000000
RELOCS_STRIPPED = 0x0001
R_X86_64_RELATIVE = 8


def checksum(img, at):
    s = 0
    data = img[:at] + b'\0\0\0\0' + img[at + 4:]
    if len(data) % 2:
        data += b'\0'
    for (w,) in struct.iter_unpack('<H', data):
        s += w
        s = (s & 0xffff) + (s >> 16)
    return (s & 0xffff) + len(img)


def findings(img):
    bad = []
    if img[:2] != b'MZ':
        return ['no MZ header']
    pe = struct.unpack_from('<I', img, 0x3C)[0]
    if img[pe:pe + 4] != b'PE\0\0':
        return ['no PE signature']
    nsec, optsz, fch = (struct.unpack_from('<H', img, pe + 6)[0],
                        *struct.unpack_from('<HH', img, pe + 20))
    opt = pe + 24
    if struct.unpack_from('<H', img, opt)[0] != 0x20B:
        return ['not PE32+']
    entry = struct.unpack_from('<I', img, opt + 16)[0]
    salign = struct.unpack_from('<I', img, opt + 32)[0]
    csum = struct.unpack_from('<I', img, opt + 64)[0]
    dll = struct.unpack_from('<H', img, opt + 70)[0]
    if not dll & NX_COMPAT:
        bad.append(f'DllCharacteristics {dll:#06x} without NX_COMPAT (0x0100)')
    if salign % 4096:
        bad.append(f'SectionAlignment {salign:#x} is not a multiple of 4096')
    if fch & RELOCS_STRIPPED:
        bad.append('relocations stripped (IMAGE_FILE_RELOCS_STRIPPED)')
    secs = []
    for i in range(nsec):
        s = opt + optsz + 40 * i
        name = img[s:s + 8].rstrip(b'\0').decode('ascii', 'replace')
        vsize, va, rsize, rptr = struct.unpack_from('<IIII', img, s + 8)
        ch = struct.unpack_from('<I', img, s + 36)[0]
        secs.append((name, va, max(vsize, rsize), ch, rptr, rsize))
        if ch & SCN_WRITE and ch & SCN_EXEC:
            bad.append(f'section {name} is writable and executable ({ch:#010x})')
    home = [x for x in secs if x[1] <= entry < x[1] + x[2]]
    if not home or not home[0][3] & SCN_EXEC or home[0][3] & SCN_WRITE:
        bad.append(f'entry point {entry:#x} not in an executable, read-only section')

    def section_of(va):
        for x in secs:
            if x[1] <= va < x[1] + x[2]:
                return x
        return None
    rela = [x for x in secs if x[0] == '.rela']
    targets = []
    for name, va, size, ch, rptr, rsize in rela:
        for off in range(rptr, rptr + rsize - 23, 24):
            r_offset, r_info, _ = struct.unpack_from('<QQq', img, off)
            if r_offset == 0 and r_info == 0:
                continue  # padding after the table
            if r_info & 0xffffffff != R_X86_64_RELATIVE:
                bad.append(f'.rela entry at {r_offset:#x} of type {r_info & 0xffffffff}, not RELATIVE')
                continue
            targets.append(r_offset)
    for name, va, size, ch, rptr, rsize in [x for x in secs if x[0] == '.relr']:
        where = None
        for off in range(rptr, rptr + rsize - 7, 8):
            (entry,) = struct.unpack_from('<Q', img, off)
            if entry & 1 == 0:
                if entry == 0 and where is not None:
                    continue  # padding after the table
                targets.append(entry)
                where = entry + 8
            elif where is None:
                bad.append('.relr bitmap before any offset')
                break
            else:
                targets += [where + 8 * (i - 1) for i in range(1, 64) if entry >> i & 1]
                where += 63 * 8
    n_rel = len(targets)
    for r_offset in targets:
        t = section_of(r_offset)
        if t is None or not t[3] & SCN_WRITE:
            bad.append(f'relocation target {r_offset:#x} in '
                       f'{t[0] if t else "no section"}, which is not writable')
    if checksum(img, opt + 64) != csum:
        bad.append(f'CheckSum {csum:#x} is not the PE/COFF sum {checksum(img, opt + 64):#x}')
    return bad, dict(dll=dll, salign=salign, sections=len(secs), relocations=n_rel,
                     wx=', '.join(f"{x[0]} {'R' if x[3] & SCN_READ else '-'}"
                                  f"{'W' if x[3] & SCN_WRITE else '-'}"
                                  f"{'X' if x[3] & SCN_EXEC else '-'}" for x in secs))


def main(paths):
    fail = 0
    for p in paths:
        img = open(p, 'rb').read()
        r = findings(img)
        bad, info = (r, None) if isinstance(r, list) else r
        if bad:
            fail = 1
            print(f"FAIL {p}: {'; '.join(bad[:6])}{' ...' if len(bad) > 6 else ''}")
        else:
            print(f"ok   {p}: NX_COMPAT (DllCharacteristics {info['dll']:#06x}), SectionAlignment "
                  f"{info['salign']:#x}, sections {info['wx']}; {info['relocations']} RELATIVE "
                  "relocations, all into writable sections; CheckSum the file's")
    return fail


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

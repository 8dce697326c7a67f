#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads one UEFI variable out of an OVMF variable store file (OVMF_VARS*.fd
kept by qemu/run.sh --vars), independently of baretop: the PI spec firmware
volume header (EFI_FIRMWARE_VOLUME_HEADER, "_FVH" at offset 40, HeaderLength
at 48), then EDK2's variable store (VARIABLE_STORE_HEADER: the
authenticated-variable GUID, Size, Format 0x5A, State 0xFE), then variables,
each an AUTHENTICATED_VARIABLE_HEADER (natural alignment, 60 bytes: StartId 0x55AA, State,
Reserved, 4 bytes of padding, MonotonicCount u64, EFI_TIME, PubKeyIndex, NameSize,
DataSize, VendorGuid) + UTF-16LE name + data, 4-byte aligned. Only the copy
whose State is VAR_ADDED (0x3F) is live; older copies are marked deleted.

  ovmf_varstore.py FILE NAME GUID      prints the data as hex (exit 1: absent)
  ovmf_varstore.py FILE NAME GUID --decode-baretop
                                       prints baretop's BaretopState fields
  ovmf_varstore.py FILE NAME GUID --count
                                       how many times it was written: every
                                       record, live or deleted (EDK2 appends a
                                       new copy on each SetVariable and marks
                                       the old one deleted until a reclaim)

set_variable() writes one as EDK2's variable driver would (the old copy
marked VAR_DELETED, a new record appended in the erased space), for tests
that need boot options in a store before the firmware boots;
delete_variable() marks the live copy VAR_DELETED.
"""
import struct, sys, uuid

AUTH_STORE_GUID = uuid.UUID('aaf32c78-947b-439a-a180-2e144ec37792')
VAR_ADDED = 0x3F
VAR_DELETED = 0xFD  # cleared bit 1: State &= VAR_DELETED
HDR = struct.Struct('<HBB4xQ16sIII16s')  # 60 bytes: MonotonicCount is 8-aligned


def variables(blob):
    if blob[40:44] != b'_FVH':
        raise ValueError('no firmware volume header ("_FVH" at offset 40)')
    hlen = struct.unpack_from('<H', blob, 48)[0]
    store = hlen
    guid = uuid.UUID(bytes_le=blob[store:store + 16])
    if guid != AUTH_STORE_GUID:
        raise ValueError(f'variable store GUID {guid}, not the authenticated one')
    size, fmt, state = struct.unpack_from('<IBB', blob, store + 16)
    if fmt != 0x5A or state != 0xFE:
        raise ValueError(f'variable store format 0x{fmt:x} state 0x{state:x}')
    pos, end = store + 28, store + size
    while pos + HDR.size <= end:
        (start, vstate, _r, _mc, _t, _pk, nsize, dsize, vguid) = HDR.unpack_from(blob, pos)
        if start != 0x55AA:
            break
        name_at = pos + HDR.size
        name = blob[name_at:name_at + nsize].decode('utf-16-le').rstrip('\0')
        data = blob[name_at + nsize:name_at + nsize + dsize]
        yield name, uuid.UUID(bytes_le=vguid), vstate, data
        pos = (name_at + nsize + dsize + 3) & ~3


def records(blob):
    """(offset, name, guid, state, data) of every record, and the offset where
    the erased space after the last one starts."""
    out = []
    hlen = struct.unpack_from('<H', blob, 48)[0]
    size = struct.unpack_from('<I', blob, hlen + 16)[0]
    pos, end = hlen + 28, hlen + size
    while pos + HDR.size <= end:
        (start, vstate, _r, _mc, _t, _pk, nsize, dsize, vguid) = HDR.unpack_from(blob, pos)
        if start != 0x55AA:
            break
        name_at = pos + HDR.size
        name = blob[name_at:name_at + nsize].decode('utf-16-le').rstrip('\0')
        out.append((pos, name, uuid.UUID(bytes_le=vguid), vstate,
                    blob[name_at + nsize:name_at + nsize + dsize]))
        pos = (name_at + nsize + dsize + 3) & ~3
    return out, pos, end


def count(blob, name, guid):
    list(variables(blob))  # checks the headers
    recs, _, _ = records(blob)
    return sum(1 for _, n, g, _, _ in recs if n == name and g == uuid.UUID(guid))


def set_variable(blob, name, guid, attributes, data):
    """A new bytearray with NAME-GUID set to data (attributes as given)."""
    list(variables(bytes(blob)))
    recs, free, end = records(bytes(blob))
    blob = bytearray(blob)
    for off, n, g, st, _ in recs:
        if n == name and g == uuid.UUID(guid) and st == VAR_ADDED:
            blob[off + 2] = st & VAR_DELETED
    nm = (name + '\0').encode('utf-16-le')
    rec = HDR.pack(0x55AA, VAR_ADDED, 0, 0, bytes(16), 0, len(nm), len(data),
                   uuid.UUID(guid).bytes_le)
    # bytes 4-7 (which variables() skips) are the Attributes
    rec = rec[:4] + struct.pack('<I', attributes) + rec[8:]
    rec += nm + bytes(data)
    if free + len(rec) > end or any(b != 0xFF for b in blob[free:free + len(rec)]):
        raise ValueError('no erased space left in the variable store')
    blob[free:free + len(rec)] = rec
    return blob


def delete_variable(blob, name, guid):
    """A new bytearray with NAME-GUID deleted as EDK2 deletes one: its live
    record marked VAR_DELETED in place (no new record)."""
    list(variables(bytes(blob)))
    recs, _, _ = records(bytes(blob))
    blob = bytearray(blob)
    for off, n, g, st, _ in recs:
        if n == name and g == uuid.UUID(guid) and st == VAR_ADDED:
            blob[off + 2] = st & VAR_DELETED
    return blob


def find(blob, name, guid):
    live = [d for n, g, s, d in variables(blob) if n == name and g == uuid.UUID(guid) and s == VAR_ADDED]
    return live[-1] if live else None


STATUS = ['none', 'ok', 'failed', 'no-results', 'hung', 'budget', 'crashed', 'cpus-left',
          'config-error']


def decode_baretop(data):
    """The layout of app/README.md ("The boot state variable"), written again
    here from the table, not from baretop's code: version 2 (72 bytes), or
    version 1 (its first 40)."""
    if len(data) < 8:
        raise ValueError(f'{len(data)} bytes')
    magic, version, length = struct.unpack_from('<4sHH', data, 0)
    size = {1: 40, 2: 72}.get(version)
    if magic != b'BAST' or size is None or length != size or len(data) != size:
        raise ValueError(f'header {magic!r} v{version} len {length}, {len(data)} bytes')
    names = ['flags', 'boots', 'runs', 'completed', 'hung', 'last_sequence', 'last_status',
             'boots_since_run']
    d = dict(zip(names, struct.unpack_from('<8I', data, 8)))
    d['version'] = version
    if version == 2:
        d['resets'], d['bootnext_failures'] = struct.unpack_from('<2I', data, 40)
        d['reset_count'], d['bootnext_count'], d['run_tag'] = struct.unpack_from('<3Q', data, 48)
    d['in_progress'] = bool(d['flags'] & 1)
    d['hand_over_next'] = bool(d['flags'] & 8)
    d['last_status'] = STATUS[d['last_status']] if d['last_status'] < len(STATUS) else 'unknown'
    return d


def main():
    path, name, guid = sys.argv[1:4]
    if '--count' in sys.argv:
        print(count(open(path, 'rb').read(), name, guid))
        return 0
    data = find(open(path, 'rb').read(), name, guid)
    if data is None:
        print(f'{name}-{guid}: not in {path}', file=sys.stderr)
        return 1
    if '--decode-baretop' in sys.argv:
        for k, v in decode_baretop(data).items():
            print(f'{k}={v}')
    else:
        print(data.hex())
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Is an EFI image's .sbat section what shim accepts?

    check-sbat.py IMAGE.efi SECTION.bin VERSION_H [URL]

SECTION.bin is the section read back by
`objcopy -O binary --only-section=.sbat IMAGE.efi SECTION.bin`; the PE
section header is read from IMAGE.efi itself, and the expectations come
from shim (SBAT.md; pe.c, verify.c verify_buffer_sbat, sbat.c
parse_sbat_section, csv.c parse_csv_data), not from baretop's sources:

  * exactly one section named ".sbat" (8 bytes, NUL-padded), without
    relocations, SizeOfRawData >= VirtualSize (else shim ignores it and then
    refuses the image as having none), its address on the image's
    SectionAlignment and its file offset on FileAlignment, inside the file;
  * shim reads SizeOfRawData bytes and stops at the first NUL: the bytes
    past the text are all NUL padding, and the text holds none;
  * the text is ASCII lines ended by LF, each with six non-empty
    comma-separated fields (SBAT_SECTION_COLUMNS); the first line is the
    format's own, exactly as SBAT.md writes it; the second is baretop's
    component: name "baretop", a decimal generation >= 1, vendor and
    package names, the version of app/version.h, and a vendor_url that is
    an absolute http(s) URL with a host (SBAT.md: "url to look stuff up,
    contact"), the URL the build was given when URL is passed (the
    Makefile's SBAT_URL; "" for none given: app/version.h's default).
    A reserved host (RFC 2606: .invalid, .test,
    .example, example.com/net/org, localhost: what a build of a clone with
    no home gets) is named on a "note" line.

Prints one line per finding; exit status 1 on any.
"""
import re
import struct
import sys

HEADER = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"


def sections(img):
    if img[:2] != b"MZ":
        raise ValueError("no MZ header")
    pe = struct.unpack_from("<I", img, 0x3C)[0]
    if img[pe:pe + 4] != b"PE\0\0":
        raise ValueError("no PE signature")
    nsec, _, symptr, nsym, optsz = struct.unpack_from("<HIIIH", img, pe + 6)
    opt = pe + 24
    sect_align, file_align = struct.unpack_from("<II", img, opt + 32)
    out = []
    for i in range(nsec):
        s = opt + optsz + 40 * i
        name = img[s:s + 8]
        vsize, va, rsize, rptr, relptr, _, nrel, _ = struct.unpack_from("<IIIIIIHH", img, s + 8)
        out.append(dict(name=name, vsize=vsize, va=va, rsize=rsize, rptr=rptr,
                        relptr=relptr, nrel=nrel))
    return out, sect_align, file_align, symptr, nsym


def main():
    image, section_bin, version_h = sys.argv[1:4]
    want_url = sys.argv[4] if len(sys.argv) > 4 else None
    img = open(image, "rb").read()
    readback = open(section_bin, "rb").read()
    m = re.search(r'#define\s+BT_VERSION\s+"([^"]+)"', open(version_h).read())
    version = m.group(1) if m else None
    if want_url == "":  # the build was given none: app/version.h's default
        m = re.search(r'#define\s+BT_SBAT_URL\s+"([^"]+)"', open(version_h).read())
        want_url = m.group(1) if m else None
    bad = []
    reserved = None

    secs, sect_align, file_align, symptr, nsym = sections(img)
    sbat = [s for s in secs if s["name"] == b".sbat\0\0\0"]
    if len(sbat) != 1:
        print(f"FAIL {image}: {len(sbat)} sections named .sbat (shim wants exactly one)")
        return 1
    s = sbat[0]
    if s["nrel"] or s["relptr"]:
        bad.append(".sbat has relocations (shim: 'SBAT section has relocations')")
    if not s["rsize"] or s["rsize"] < s["vsize"]:
        bad.append(f".sbat SizeOfRawData {s['rsize']:#x} < VirtualSize {s['vsize']:#x}: shim ignores it")
    if s["va"] % sect_align:
        bad.append(f".sbat at {s['va']:#x}, not on SectionAlignment {sect_align:#x}")
    if s["rptr"] % file_align:
        bad.append(f".sbat file offset {s['rptr']:#x}, not on FileAlignment {file_align:#x}")
    if s["rptr"] + s["rsize"] > len(img):
        bad.append(".sbat runs past the end of the file")
    if symptr or nsym:
        bad.append(f"a COFF symbol table ({nsym} symbols at {symptr:#x}) after the sections "
                   "(deprecated in images; sbsign warns of the gap)")

    raw = img[s["rptr"]:s["rptr"] + s["rsize"]]        # what shim reads
    text = raw.split(b"\0", 1)[0]                        # shim stops at the first NUL
    if raw[len(text):].strip(b"\0"):
        bad.append("bytes after the first NUL in .sbat: shim never reads them")
    if readback.rstrip(b"\0") != text:
        bad.append("objcopy's read-back of .sbat differs from the section's raw data")
    if b"\0" in readback.rstrip(b"\0"):
        bad.append("a NUL inside the .sbat text")
    try:
        text = text.decode("ascii")
    except UnicodeDecodeError:
        bad.append(".sbat text is not ASCII")
        text = text.decode("ascii", "replace")
    if not text.endswith("\n"):
        bad.append(".sbat text does not end with a line feed")
    if "\r" in text:
        bad.append(".sbat text has CR (LF-only lines expected)")
    lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    for n, line in enumerate(lines, 1):
        fields = line.split(",")
        if len(fields) != 6 or any(f == "" for f in fields):
            bad.append(f".sbat line {n} has not six non-empty fields: {line!r}")
        if any(not (0x20 <= ord(c) < 0x7F) for c in line):
            bad.append(f".sbat line {n} has a control character: {line!r}")
    if not lines or lines[0] != HEADER:
        bad.append(f".sbat first line is not SBAT.md's header: {lines[:1]!r}")
    comp = [line.split(",") for line in lines[1:] if line.split(",")[0] == "baretop"]
    if len(comp) != 1:
        bad.append(f"{len(comp)} 'baretop' component lines (one expected)")
    else:
        f = comp[0] + [""] * 6
        if not re.fullmatch(r"[1-9][0-9]*", f[1]):
            bad.append(f"baretop's generation {f[1]!r} is not a decimal >= 1 (shim uses atoi)")
        if version is None or f[4] != version:
            bad.append(f"baretop's vendor_version {f[4]!r} is not app/version.h's {version!r}")
        m = re.fullmatch(r"https?://([A-Za-z0-9.-]+)(:[0-9]+)?(/[!-~]*)?", f[5])
        if not m:
            bad.append(f"baretop's vendor_url {f[5]!r} is not an absolute http(s) URL with a host")
        elif want_url is not None and f[5] != want_url:
            bad.append(f"baretop's vendor_url {f[5]!r} is not the build's SBAT_URL {want_url!r}")
        host = m.group(1).lower().rstrip(".") if m else ""
        if host == "localhost" or host.rsplit(".", 1)[-1] in ("invalid", "test", "example", "localhost") \
                or host in ("example.com", "example.net", "example.org"):
            reserved = host

    for b in bad:
        print(f"FAIL {image}: {b}")
    if not bad:
        print(f"ok   {image} .sbat: {len(lines)} lines, header exact, baretop generation {comp[0][1]} "
              f"version {comp[0][4]} url {comp[0][5]}; {s['vsize']} bytes in {s['rsize']} at {s['va']:#x}, "
              "no relocations, no symbol table")
        if reserved:
            print(f"note {image}: vendor_url host {reserved} is reserved (RFC 2606): this build "
                  "names no home; a release build sets SBAT_URL (boot/README.md)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

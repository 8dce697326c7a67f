#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages baretop needs to build, test and run in QEMU.
# Idempotent: packages already present are not touched, and apt-get is only
# called (after an 'apt-get update') when something is missing. It also adds
# a deb-src entry for bookworm main (its own file, only when apt has none):
# tools/build-ovmf.sh builds OVMF from Debian's edk2 source package.
set -euo pipefail

packages=(
  make gcc clang llvm libc6-dev binutils     # host build, fuzzers (clang), sanitizers
  libclang-rt-14-dev                          # ASan/UBSan/libFuzzer runtimes for clang
  python3                                     # test helpers (../shared check.py)
  python3-jsonschema                          # the suite's `results-schema` step: results files against report/results.schema.json
  gnu-efi newlib-source xz-utils              # the UEFI build: gnu-efi + newlib from source
  ovmf qemu-system-x86 mtools dosfstools      # boot in QEMU + OVMF (its snakeoil Secure Boot pair: the `qemu-secure-boot` step), FAT ESP images
  file                                        # tests check the PE32+ header
  fdisk bc                                    # sfdisk: boot/make-usb-image.sh; bc: test timing
  chromium chromium-driver                    # the suite's `report-html` step: the HTML report rendered headless
  libsqlite3-dev                              # baretop-host fleet: the fleet database (links -lsqlite3)
  libpq-dev postgresql-15                     # baretop-host fleet --db postgresql://: libpq (links -lpq); the `fleet-postgres` step starts a server
  valgrind                                    # the suite's `kernel-census` step: cachegrind counts the known-count kernels
  efibootmgr sbsigntool                       # boot/install.sh: boot entries, Secure Boot signing
  fusefat openssl                             # the suite's `install-esp` step: a FAT ESP mounted through FUSE, a test key
  pesign                                      # the suite's `boot-image` step: a second Authenticode hash of the signed app
  systemd-boot-efi shim-unsigned              # the suite's `qemu-reboot-no-loop` and `qemu-secure-boot` steps: baretop under Debian's systemd-boot 252 and shim 16.1
  dpkg-dev nasm acpica-tools uuid-dev g++     # tools/build-ovmf.sh: apt-get source edk2 (dpkg-source), EDK2's BaseTools (VfrCompile is C++), OVMF
)

# A deb-src entry for bookworm main unless one is configured (in any file,
# either format): `apt-get indextargets` lists what apt is configured to
# fetch, downloaded or not. The mirror is the one bookworm main's packages
# come from.
eval "$(apt-config shell parts Dir::Etc::sourceparts/d)"   # (apt's sources.list.d)
src_list=${parts:?}baretop-deb-src.list
need_update=0
targets=$(apt-get indextargets --no-release-info \
            --format '$(CREATED_BY) $(RELEASE) $(COMPONENT) $(SITE)' 2>/dev/null || true)
if ! grep -q '^Sources bookworm main ' <<<"$targets"; then
  mirror=$(awk '$1 == "Packages" && $2 == "bookworm" && $3 == "main" {print $4; exit}' <<<"$targets")
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to add a deb-src entry for bookworm main (try: sudo $0)" >&2
    exit 1
  fi
  echo "setup: adding $src_list (Debian's source packages: tools/build-ovmf.sh)" >&2
  echo "deb-src ${mirror:-http://deb.debian.org/debian} bookworm main" >"$src_list"
  need_update=1
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  [ "$need_update" = 0 ] || apt-get update -qq
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: need root to install packages (try: sudo $0)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

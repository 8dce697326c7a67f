#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds newlib (from Debian's newlib-source) as the C library of baretop.efi.
#
# The result is cached outside the source tree, in a folder whose name is a
# hash of everything that shapes the library: this script (flags included),
# the newlib tarball and the compiler version. Changing a flag therefore
# rebuilds; a fresh clone on a machine that already built it does not.
#
#   build-newlib.sh --dir    print the install folder (does not build)
#   build-newlib.sh          build it if missing, then print the folder
set -euo pipefail

tarball=/usr/src/newlib/newlib-3.3.0.tar.xz
cache_root=${BARETOP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baretop}

# Flags for a position-independent, red-zone-free libc that runs in UEFI
# boot services (see ../shared/DESIGN.md, "Toolchain facts"). For size
# (baretop.efi's budget, tests/suite/11-efi-size.sh): -Os (41 KB less than
# -O2: printf, scanf and dtoa are large and cold; memcpy and memset are
# newlib's x86-64 assembly either way) and -ffunction-sections, so the
# EFI link's --gc-sections drops the functions of a linked object nothing
# calls (10 KB). Not -fdata-sections: gnu-efi's linker script places no
# .bss.* section (the Makefile says why).
target_cflags="-Os -ffunction-sections -fpic -mno-red-zone -fno-stack-protector -fno-asynchronous-unwind-tables"
configure_flags=(
  --target=x86_64-elf --disable-multilib
  --disable-newlib-supplied-syscalls      # efi/syscalls.c provides them
  --enable-newlib-io-long-long --enable-newlib-io-c99-formats
  --disable-newlib-multithread
)

key=$( { cat "$0"; stat -c '%s %Y' "$tarball" 2>/dev/null || echo none; gcc --version | head -1; } \
       | sha256sum | cut -c1-16 )
dir=$cache_root/newlib-$key

if [ "${1:-}" = "--dir" ]; then
  echo "$dir"
  exit 0
fi

if [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi

if [ ! -f "$tarball" ]; then
  echo "build-newlib: $tarball is missing (apt-get install newlib-source, or run tools/setup.sh)" >&2
  exit 1
fi

mkdir -p "$cache_root"
work=$(mktemp -d "$cache_root/newlib-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "build-newlib: building newlib into $dir (about a minute)" >&2
tar -xf "$tarball" -C "$work"
mkdir "$work/build"
(
  cd "$work/build"
  ../newlib-salsa/configure "${configure_flags[@]}" --prefix="$work/install" \
    CC_FOR_TARGET=gcc AR_FOR_TARGET=ar RANLIB_FOR_TARGET=ranlib AS_FOR_TARGET=as \
    LD_FOR_TARGET=ld NM_FOR_TARGET=nm OBJDUMP_FOR_TARGET=objdump \
    CFLAGS_FOR_TARGET="$target_cflags" >"$work/configure.log" 2>&1 \
    || { tail -30 "$work/configure.log" >&2; exit 1; }
  make -j"$(nproc)" all-target-newlib >"$work/make.log" 2>&1 \
    || { tail -30 "$work/make.log" >&2; exit 1; }
  make install-target-newlib >"$work/install.log" 2>&1 \
    || { tail -30 "$work/install.log" >&2; exit 1; }
)
# Publish atomically: a concurrent or interrupted build never leaves a
# half-populated folder behind under the final name.
rm -rf "$dir.tmp"
mv "$work/install/x86_64-elf" "$dir.tmp"
touch "$dir.tmp/.complete"
mv -T "$dir.tmp" "$dir" 2>/dev/null || rm -rf "$dir.tmp"
echo "$dir"

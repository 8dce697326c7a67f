#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds OVMF from Debian's edk2 source package with the CPU settings real
# boards ship, as a second firmware for the QEMU steps (Debian's ovmf
# package is the first): EDK2's own MP code (UefiCpuPkg MpInitLib, CpuDxe)
# under the PCDs that OVMF leaves at their forgiving defaults.
#
#   build-ovmf.sh --dir   print the folder (does not build)
#   build-ovmf.sh         build it if missing, then print the folder
#
# The folder holds OVMF.fd (code and variables in one image, for -bios),
# OVMF_CODE.fd and OVMF_VARS.fd (the two flash chips, for a persistent
# variable store) and build.txt (source version, flags, the PCD values read
# back from the build's AutoGen.h, build time). It is cached outside the tree
# like newlib (tools/build-newlib.sh), in a folder named after the source
# version and a hash of this script's code (its flags; not its comments) and
# the compiler: a second call finds it and returns at once; another source
# or flag builds anew.
#
# `build -a X64 -t GCC5 -p OvmfPkg/OvmfPkgX64.dsc -b RELEASE
# -DSECURE_BOOT_ENABLE=TRUE -DFD_SIZE_4MB` (Debian's own flags for its 4 MB
# image, debian/rules OVMF_4M_FLAGS, without the network options) and two
# PCDs that OVMF leaves at UefiCpuPkg.dec's defaults:
#   PcdCpuApStackSize=0x1000 (default 0x8000): 4 KiB per AP, the stacks
#     packed side by side with no guard page (MpLib.c MpInitLibInitialize
#     allocates ApStackSize * MaxLogicalProcessorNumber in one buffer, the
#     MONITOR buffer right after it), as edk2-platforms' Whitley server board
#     sets it (Platform/Intel/WhitleyOpenBoardPkg/PlatformPkg.dsc:257 at
#     feba6272, the parent of the commit that removed Whitley) and
#     SimicsOpenBoardPkg/BoardX58Ich10/OpenBoardPkgPcd.dsc:176;
#   PcdCpuApLoopMode=2 (default 1, HLT): idle APs wait in MONITOR/MWAIT on
#     their StartupApSignal, as Intel's client silicon packages set it
#     (edk2-platforms Silicon/Intel/CoffeelakeSiliconPkg/CoffeelakeSiliconPkg.dsc:59,
#     TigerlakeSiliconPkg.dsc:73, and the Kaby/Comet/Whiskey/Tiger Lake
#     boards' OpenBoardPkgPcd.dsc, at 81781e75). MpInitLib then wakes APs by
#     a memory write instead of INIT-SIPI-SIPI (MpLib.c MpInitLibInitialize:
#     WakeUpByInitSipiSipi = ApLoopMode == ApInHltLoop), also at
#     ExitBootServices (DxeMpLib.c MpInitChangeApLoopCallback), so an AP
#     that is not in the firmware's loop never answers. Where
#     CPUID.01H:ECX[3] (MONITOR) is clear, MpLib.c GetApLoopMode falls back
#     to the HLT loop: the same image runs both ways, chosen by QEMU's -cpu.
#     Under QEMU's TCG the MWAIT loop works with one AP only: TCG reports
#     CPUID.05H:EBX (largest monitor-line size) as 0, GetApLoopMode takes it
#     as the spacing of the APs' StartupApSignal words, so every AP waits on
#     the same word and with two or more APs the firmware hangs before its
#     boot manager (seen at -smp 3 and 4). Boot it with -cpu
#     Skylake-Client,+monitor and -smp 2 for the MWAIT loop; with -cpu
#     Skylake-Client (no MONITOR: the HLT loop) for more CPUs.
# PcdCpuStackGuard stays FALSE: with 4 KiB AP stacks it cannot work
# (DxeMpLib.c InitMpGlobalData: "PcdCpuApStackSize is not big enough for
# Stack Guard!", an ASSERT that a RELEASE build compiles out, then marks the
# bottom page of each AP stack not-present: the whole 4 KiB stack). Built
# so, OVMF triple-faults within a second at -smp 2 and boots at -smp 1.
# With 8 KiB AP stacks (FSP boards) the guard leaves 4 KiB usable and turns
# an overflow into a #PF on the guard page instead of a write into the next
# AP's stack.
#
# Needs Debian's edk2 source (a deb-src entry for bookworm main: tools/setup.sh
# adds one) and its build dependencies (nasm, acpica-tools, uuid-dev, g++,
# dpkg-dev: tools/setup.sh). About 4.5 minutes on 2 idle CPUs (263 s in a
# fresh root, 5.5 CPU minutes), 10-13 on the loaded 2-core machine; the
# cache is 8.1 MB.
set -euo pipefail

cache_root=${BARETOP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baretop}
flags=(-a X64 -t GCC5 -p OvmfPkg/OvmfPkgX64.dsc -b RELEASE
       -DSECURE_BOOT_ENABLE=TRUE -DFD_SIZE_4MB
       --pcd gUefiCpuPkgTokenSpaceGuid.PcdCpuApStackSize=0x1000
       --pcd gUefiCpuPkgTokenSpaceGuid.PcdCpuApLoopMode=2)
want_pcds="PcdCpuApStackSize = 0x1000; PcdCpuApLoopMode = 2; PcdCpuStackGuard = 0"

case "${1:-}" in
  ""|--dir) ;;
  -h|--help) awk 'NR >= 3 && !/^#/ {exit} NR >= 3 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
  *) echo "build-ovmf: unknown argument $1 (--help)" >&2; exit 2 ;;
esac

# The source version apt would fetch: the highest one the configured deb-src
# entries offer (read from apt's lists, no download).
version=$(apt-cache showsrc edk2 2>/dev/null | awk '/^Version:/ {print $2}' |
          sort -V | tail -1 || true)
if [ -z "$version" ]; then
  echo "build-ovmf: no source package edk2 in apt's lists (a deb-src entry for bookworm" \
       "main and apt-get update: run tools/setup.sh as root)" >&2
  exit 1
fi
# (the script without its comments: a comment edit does not rebuild)
key=$( { grep -v '^ *#' "$0"; echo "$version"; gcc --version | head -1; } | sha256sum | cut -c1-12 )
dir=$cache_root/ovmf-$version-$key

if [ "${1:-}" = --dir ] || [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi

for t in nasm iasl g++ dpkg-source python3; do
  command -v "$t" >/dev/null ||
    { echo "build-ovmf: $t is missing (run tools/setup.sh as root)" >&2; exit 1; }
done
[ -f /usr/include/uuid/uuid.h ] ||
  { echo "build-ovmf: uuid-dev is missing (run tools/setup.sh as root)" >&2; exit 1; }

mkdir -p "$cache_root"
# One build at a time (suite steps run in parallel); whoever waited finds
# the folder made by the other.
exec 9>"$cache_root/ovmf.lock"
flock 9
if [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi

work=$(mktemp -d "$cache_root/ovmf-build.XXXXXX")
log=$work/build.log
# (a failed build's log is kept, for its whole story)
trap '[ -f "$dir/.complete" ] || cp -f "$log" "$cache_root/ovmf-failed-build.log" 2>/dev/null
      rm -rf "$work"' EXIT
t0=$(date +%s)
echo "build-ovmf: building OVMF from edk2 $version into $dir" \
     "(about 4.5 minutes on 2 idle CPUs; once)" >&2
(
  cd "$work"
  # The orig tarball carries the submodules the build needs (openssl,
  # brotli, softfloat; debian/rules get-orig-source); dpkg-source applies
  # Debian's patches.
  apt-get source -q "edk2=$version" >"$log" 2>&1 ||
    { tail -20 "$log" >&2; exit 1; }
  src=$(find . -maxdepth 1 -type d -name 'edk2-*' | head -1)
  cd "$src"
  # As debian/rules: the variables the edk2 build system sets itself.
  unset WORKSPACE EDK_TOOLS_PATH CONF_PATH PACKAGES_PATH
  set +u
  # shellcheck disable=SC1091
  . ./edksetup.sh >>"$log" 2>&1
  set -u
  make -C BaseTools -j"$(nproc)" >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
  build -n "$(nproc)" "${flags[@]}" >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
  out=Build/OvmfX64/RELEASE_GCC5
  mkdir "$work/out"
  cp "$out/FV/OVMF.fd" "$out/FV/OVMF_CODE.fd" "$out/FV/OVMF_VARS.fd" "$work/out/"
  # The values the build compiled in, read back from the MP library's
  # generated header rather than trusted from the command line.
  pcd() {
    sed -n "s/^#define _PCD_VALUE_$1 *\([0-9A-Fa-fx]*\)U\{0,1\}$/$1 = \1/p" \
      "$out/X64/UefiCpuPkg/Library/MpInitLib/DxeMpInitLib/DEBUG/AutoGen.h" | head -1
  }
  got="$(pcd PcdCpuApStackSize); $(pcd PcdCpuApLoopMode); $(pcd PcdCpuStackGuard)"
  [ "$got" = "$want_pcds" ] ||
    { echo "build-ovmf: the build has '$got', not '$want_pcds'" >&2; exit 1; }
  {
    echo "source: Debian edk2 $version (apt-get source)"
    echo "build ${flags[*]}"
    echo "in DxeMpInitLib's AutoGen.h: $got"
    echo "built in $(( $(date +%s) - t0 )) s on $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  } >"$work/out/build.txt"
)
# Publish atomically, as build-newlib.sh does.
rm -rf "$dir.tmp"
mv "$work/out" "$dir.tmp"
touch "$dir.tmp/.complete"
mv -T "$dir.tmp" "$dir" 2>/dev/null || rm -rf "$dir.tmp"
echo "build-ovmf: done in $(( $(date +%s) - t0 )) s" >&2
echo "$dir"

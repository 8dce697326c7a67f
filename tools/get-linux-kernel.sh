#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Debian's cloud kernel image (the package linux-image-cloud-amd64
# depends on) as an EFI application for the QEMU steps that need a real OS
# loader after baretop: its EFI stub calls ExitBootServices, where EDK2's MP
# driver waits for every AP (DxeMpLib.c MpInitChangeApLoopCallback). The
# package is downloaded (apt-get download) and only vmlinuz is extracted
# (dpkg-deb); nothing is installed.
#
#   get-linux-kernel.sh --path   print the cached vmlinuz, if any (exit 1: none)
#   get-linux-kernel.sh          fetch it if missing, then print its path
#
# Cached outside the tree like newlib (tools/build-newlib.sh), in a folder
# named after the package and its version (about 14 MB). The version is the
# one apt's lists name as the candidate, so an apt-get update that brings a
# newer kernel fetches it once; without the lists the last one fetched is used.
set -euo pipefail

cache_root=${BARETOP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/baretop}
meta=linux-image-cloud-amd64

latest_cached() {
  local f
  f=$(ls -d "$cache_root"/linux-image-*-cloud-amd64_*/vmlinuz 2>/dev/null | sort -V | tail -1)
  [ -n "$f" ] && echo "$f"
}

pkg=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}' || true)
ver=""
[ -n "$pkg" ] && ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')
if [ -z "$pkg" ] || [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
  if latest_cached; then exit 0; fi
  echo "get-linux-kernel: apt knows no $meta (apt-get update; tools/setup.sh)" >&2
  exit 1
fi
dir=$cache_root/${pkg}_$ver

if [ "${1:-}" = "--path" ]; then
  [ -f "$dir/vmlinuz" ] && { echo "$dir/vmlinuz"; exit 0; }
  latest_cached || exit 1
  exit 0
fi
if [ -f "$dir/vmlinuz" ]; then
  echo "$dir/vmlinuz"
  exit 0
fi

mkdir -p "$cache_root"
work=$(mktemp -d "$cache_root/linux-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "get-linux-kernel: fetching $pkg $ver (once)" >&2
# (as root apt warns that _apt cannot write here: the download is the same)
(cd "$work" && apt-get download -q "$pkg=$ver" >"$work/apt.log" 2>&1) ||
  { tail -5 "$work/apt.log" >&2; exit 1; }
deb=$(ls "$work"/*.deb)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards './boot/vmlinuz-*'
mkdir "$work/out"
mv "$work/boot/"vmlinuz-* "$work/out/vmlinuz"
echo "$pkg $ver" >"$work/out/version.txt"
rm -rf "$dir.tmp"
mv "$work/out" "$dir.tmp"
mv -T "$dir.tmp" "$dir" 2>/dev/null || rm -rf "$dir.tmp"
echo "$dir/vmlinuz"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# The EFI image stays within its budget of 960 KiB (983,040 bytes: 64 KiB
# under 1 MiB, room for the next models), built with gcc and with clang.
# What keeps it there: the built-in models and event lists are packed
# tables (metrics/model-pack.h, validate/atlas-pack.h), the relocations are
# packed as RELR (efi/relocate.c), newlib is built for size with one
# formatter linked (tools/build-newlib.sh, efi/stdio.c), and cold code is
# -Os (Makefile). A change that outgrows the budget fails here, with the
# image's sections.
set -euo pipefail
limit=983040
make -s -j"$(nproc)" efi >/dev/null
make -s -j"$(nproc)" CC=clang efi >/dev/null
fail=0
for img in build/baretop.efi build/baretop-clang.efi; do
  size=$(stat -c %s "$img")
  if [ "$size" -le "$limit" ]; then
    echo "ok   $img: $size bytes <= $limit (960 KiB), $((limit - size)) to spare"
  else
    echo "FAIL $img: $size bytes > $limit (960 KiB), $((size - limit)) too many"
    objdump -h "$img" | awk '/^ +[0-9]/ {print $2, $3}' | while read -r name hex; do
      printf '     %-10s %d bytes\n' "$name" "$((16#$hex))"
    done
    fail=1
  fi
done
exit $fail

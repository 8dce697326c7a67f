#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The EFI image stays within its budget of 1 MiB (issue 19): the built-in
# models are packed tables (metrics/model-pack.h), not 3 MB of formula text
# and relocations. A change that outgrows the budget fails here.
set -euo pipefail
limit=1048576
make -s -j"$(nproc)" efi >/dev/null
fail=0
for img in build/baretop.efi; do
  size=$(stat -c %s "$img")
  if [ "$size" -le "$limit" ]; then
    echo "ok   $img: $size bytes <= $limit (1 MiB), $((limit - size)) to spare"
  else
    echo "FAIL $img: $size bytes > $limit (1 MiB), $((size - limit)) too many"
    objdump -h "$img" | awk '/^ +[0-9]/ {print $2, $3}' | while read -r name hex; do
      printf '     %-10s %d bytes\n' "$name" "$((16#$hex))"
    done
    fail=1
  fi
done
exit $fail

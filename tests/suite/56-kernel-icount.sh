#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~8s
# The known-count kernels' instruction formulas on the EFI build itself
# (the QEMU half; tests/suite/36-kernel-census.sh is the hosted one):
# baretop.efi --kernel-ticks boots in QEMU with -icount shift=S,sleep=off,
# where the guest TSC advances exactly 2^S ticks per executed instruction
# (the TSC is read from the virtual clock, which advances 2^S ns per
# instruction), and times every kernel at n1 and
# n2 = 2 n1 between two RDTSC reads. S = 5 by default: at S = 0 OVMF's timed
# busy-waits cost one executed instruction per nanosecond and the boot takes
# ~40 s of CPU instead of ~3 s, for the same instruction counts (set
# KERNEL_ICOUNT_SHIFT=0 to run it so). tests/suite/lib/kernel-ticks-check.py compares
# (ticks minus the empty body's ticks) / 2^S with the declared instructions at both
# sizes, exactly, min = max, and reports the window's foreign-instruction
# count, for the gcc and the clang build; and which pages map dtlb-walk's
# buffer there (read from the page tables) with the page_loads declared for
# them. -cpu max: QEMU's TCG then offers XSAVE/AVX/FMA, so the 256-bit and
# FMA kernels run too (no TCG has AVX-512). Negative case: a declaration off
# by one must fail the same check.
set -uo pipefail
shift_s=${KERNEL_ICOUNT_SHIFT:-5}
start=$(date +%s.%N)
out=build/qemu/kernel-icount
mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null && make -s -j"$(nproc)" CC=clang efi >/dev/null &&
  make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
build/kernel-census declare >"$out/declare.txt" || { echo "FAIL kernel-census declare"; exit 1; }
fail=0
# The gcc and the clang build: the same bodies must give the same counts.
for efi in build/baretop.efi build/baretop-clang.efi; do
  b=$out/$(basename "$efi" .efi)
  t0=$(date +%s.%N)
  bash qemu/run.sh --efi "$efi" --out "$b" --cpu max --smp 1 --timeout 240 \
    --qemu-arg -icount --qemu-arg "shift=$shift_s,sleep=off" --args "--kernel-ticks" >/dev/null 2>"$b.err"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $efi --kernel-ticks: exit status $rc"; sed 's/^/     /' "$b.err"
    tail -20 "$b/console.txt" 2>/dev/null | sed 's/^/     | /'
    fail=1; continue
  fi
  printf 'ok   %s --kernel-ticks under -icount shift=%s,sleep=off: exit status 0 (%.1f s)\n' \
    "$efi" "$shift_s" "$(echo "$(date +%s.%N) - $t0" | bc)"
  check() { python3 tests/suite/lib/kernel-ticks-check.py "$out/declare.txt" "$b/console.txt" "$@"; }
  check --shift "$shift_s" || fail=1
  # The pages that map dtlb-walk's 16 MiB buffer, read by the EFI build from
  # the page tables: OVMF's identity map uses 2 MiB
  # (or 1 GiB) pages, so the walk is a few large pages, and page_loads must
  # be declared for them: n on 4 KiB pages, 0 on 2 MiB / 1 GiB pages (the
  # DTLB holds 8 or 9 of them), not declared when mixed.
  python3 tests/suite/lib/kernel-pages-check.py "$b/console.txt" || fail=1
  # Negative case: page_loads declared n on large pages (the declaration
  # that ignored the page size) must fail the same check.
  sed -E 's/^(kernel-ticks-pages dtlb-walk ([0-9]+) .* )page_loads=0 /\1page_loads=\2 /' \
    "$b/console.txt" >"$out/neg-pages.txt"
  if grep -q '^kernel-ticks-pages dtlb-walk .* 2097152 .*page_loads=[1-9]' "$out/neg-pages.txt" &&
     ! python3 tests/suite/lib/kernel-pages-check.py "$out/neg-pages.txt" >/dev/null; then
    echo "ok   negative case: page_loads = n on 2 MiB pages FAILs, as it must"
  elif grep -q 'page_loads=0 ' "$b/console.txt"; then
    echo "FAIL negative case: page_loads = n on large pages was not caught"; fail=1
  fi
  # Negative cases: a declaration off by one, and the ticks read with the
  # wrong number of ticks per instruction.
  for p in loop-dec-jnz:instructions:1 nop-sled:instructions:-1 rep-stosb:rep_iterations:1 shift; do
    if [ "$p" = shift ]; then set -- --shift $((shift_s == 0 ? 1 : shift_s - 1)); else set -- --shift "$shift_s" --perturb "$p"; fi
    if check "$@" >"$out/neg.txt"; then
      echo "FAIL negative case: a declaration perturbed by $p was not caught"; fail=1
    else
      echo "ok   negative case $p: $(grep -c '^FAIL' "$out/neg.txt") kernel(s) FAIL, as they must"
    fi
  done
done
printf 'step time: %.1f s\n' "$(echo "$(date +%s.%N) - $start" | bc)"
exit $fail

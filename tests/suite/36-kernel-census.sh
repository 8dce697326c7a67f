#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~3s
# The known-count kernels' declarations against valgrind's cachegrind (the
# hosted half; tests/suite/56-kernel-icount.sh is the QEMU one):
# build/kernel-census runs every kernel body once at n1 and once at
# n2 = 2 n1 under cachegrind; each body is its own
# function, so its per-function totals of Ir, Bc, Bi, Dr, Dw are compared
# exactly with the declared instructions, cond, indirect, loads, stores at
# both sizes (tests/suite/lib/kernel-census-check.py says how REP maps).
# Then the negative cases: the same counts with one declaration off by one
# must fail.
set -uo pipefail
start=$(date +%s.%N)
command -v valgrind >/dev/null || { echo "FAIL valgrind not installed (bash tools/setup.sh)"; exit 1; }
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
census=build/kernel-census
check=tests/suite/lib/kernel-census-check.py
# The declarations are listed under valgrind too: it hides AVX-512 from
# CPUID, so both agree on which kernels are skipped.
valgrind -q --tool=none "$census" declare >"$out/declare.txt" || { echo "FAIL kernel-census declare"; exit 1; }
for i in 1 2; do
  valgrind -q --tool=cachegrind --cache-sim=yes --branch-sim=yes \
    --cachegrind-out-file="$out/cg$i.out" "$census" run $i >"$out/run$i.txt" 2>"$out/vg$i.err" ||
    { echo "FAIL kernel-census run $i under cachegrind"; cat "$out/vg$i.err"; exit 1; }
done
fail=0
python3 "$check" "$out/declare.txt" "$out/cg1.out" "$out/cg2.out" || fail=1

# Negative cases: a wrong constant term, a wrong slope is simulated by a
# wrong value at both sizes of a per-iteration count, a wrong load count.
for p in loop-dec-jnz:instructions:1 branch-mix:cond:-1 indirect:indirect:1 call-ret:loads:1 \
         store-stride:stores:-1 rep-movsb:instructions:1; do
  if python3 "$check" "$out/declare.txt" "$out/cg1.out" "$out/cg2.out" --perturb "$p" >"$out/neg.txt"; then
    echo "FAIL negative case: a declaration perturbed by $p was not caught"; fail=1
  else
    echo "ok   negative case $p: $(grep -c '^FAIL' "$out/neg.txt") kernel(s) FAIL, as they must"
  fi
done
end=$(date +%s.%N)
printf 'step time: %.1f s\n' "$(echo "$end - $start" | bc)"
exit $fail

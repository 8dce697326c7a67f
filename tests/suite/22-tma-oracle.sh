#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~78s
# Beyond the shipped vectors: an independent Python evaluator of the vendor
# formulas (tests/oracle/, reads the vendor JSON itself, Python semantics)
# first reproduces the shipped vectors, then is compared with baretop on
# seeded random count sets of every model (plausible, 2^48-scale, near-equal
# counts, zero patterns, small integers, SMT on/off, retire latencies given
# or not).
set -euo pipefail
ref=../shared/reference
if [ ! -d "$ref" ]; then
  echo "SKIP: $ref is absent (the oracle reads the vendor files)"
  exit 77  # skipped
fi
if [ -d ../shared/testdata/tma ]; then
  python3 tests/oracle/check_vectors.py --ref "$ref" --cases ../shared/testdata/tma
fi
for seed in 1 2 3; do
  python3 tests/oracle/compare.py --ref "$ref" --host build/baretop-host --per-model 36 --seed $seed |
    tail -1
done

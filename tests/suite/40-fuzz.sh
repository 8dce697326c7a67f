#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~80s
# Every libFuzzer target runs briefly: no crash, leak or undefined behaviour.
set -euo pipefail
ls tests/fuzz/fuzz-*.c >/dev/null 2>&1 || { echo "no fuzz targets yet"; exit 77; }  # 77: skipped
make -j"$(nproc)" fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-2}"

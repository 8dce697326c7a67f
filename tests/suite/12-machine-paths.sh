#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# No absolute machine path in any tracked file (tests/suite/lib/
# machine-paths.py says which forms are allowed): a clone must work alone,
# wherever it is put. The checker first shows it catches planted paths.
# Outside a git checkout (an exported tree) every file under the top is read.
# The fuzzers' corpus is left out: its inputs are bytes a fuzzer made up
# (tests/fuzz/README.md), no path anything uses.
set -uo pipefail
chk=tests/suite/lib/machine-paths.py
python3 "$chk" --self-test || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z -- . ':!tests/fuzz/corpus' | xargs -0 python3 "$chk"
else
  find . \( -path ./build -o -path ./tests/fuzz/corpus \) -prune -o -type f -print0 | xargs -0 python3 "$chk"
fi

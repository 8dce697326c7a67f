#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every host benchmark program. Each measures its own baseline in the
# same run and prints ratios, because these machines are shared and noisy.
set -u
fail=0
for b in "$@"; do
  echo "== $(basename "$b")"
  "$b" || fail=1
done
exit $fail

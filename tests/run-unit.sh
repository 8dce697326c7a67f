#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs hosted test programs; prints a one-line summary per program and the
# full TAP output of any that fails.
set -u
fail=0
for t in "$@"; do
  out=$("$t" 2>&1); rc=$?
  n_ok=$(grep -c '^ok ' <<<"$out")
  n_skip=$(grep -c '# SKIP' <<<"$out")
  if [ $rc -ne 0 ]; then
    echo "FAIL $(basename "$t") (exit $rc)"; echo "$out" | grep -v '^ok ' | tail -60; fail=1
  else
    echo "ok   $(basename "$t"): $n_ok tests ($n_skip skipped)"
    [ "$n_skip" -gt 0 ] && grep '# SKIP' <<<"$out" | sed 's/^/       /'
  fi
done
exit $fail

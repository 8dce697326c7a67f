#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs hosted test programs; prints a one-line summary per program and the
# full TAP output of any that fails. UNIT_JOBS programs run at once (default:
# the CPUs; they are independent, each in its own process); the summaries
# are printed in the order the programs were given.
set -u
jobs=${UNIT_JOBS:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run I PROGRAM: its output in $tmp/I.out, its exit status in $tmp/I.rc
run() { "$2" >"$tmp/$1.out" 2>&1; echo $? >"$tmp/$1.rc"; }

i=0
for t in "$@"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  run $i "$t" &
  i=$((i + 1))
done
wait

fail=0
i=0
for t in "$@"; do
  out=$(cat "$tmp/$i.out")
  rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo "none")
  n_ok=$(grep -c '^ok ' <<<"$out")
  n_skip=$(grep -c '# SKIP' <<<"$out")
  if [ "$rc" != 0 ]; then
    echo "FAIL $(basename "$t") (exit $rc)"; echo "$out" | grep -v '^ok ' | tail -60; fail=1
  else
    echo "ok   $(basename "$t"): $n_ok tests ($n_skip skipped)"
    [ "$n_skip" -gt 0 ] && grep '# SKIP' <<<"$out" | sed 's/^/       /'
  fi
  i=$((i + 1))
done
exit $fail

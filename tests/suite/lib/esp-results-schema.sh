#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# usage: tests/suite/lib/esp-results-schema.sh DIR [PLANTED...]
# Validates every results file a QEMU step's boots left on their ESPs (the
# copies qemu/run.sh brings back: DIR/**/esp/baretop/results/*.json) against
# report/results.schema.json (check-results-schema.py --files-only). A file
# equal in content to one of PLANTED (files the step put on an ESP itself,
# not written by baretop) is left out, so a real result is never skipped.
# Fails when no file is found or any is invalid. Run from the tree's top.
set -uo pipefail
dir=$1; shift
files=()
n_planted=0
while IFS= read -r f; do
  for p in "$@"; do
    if cmp -s "$f" "$p"; then n_planted=$((n_planted + 1)); continue 2; fi
  done
  files+=("$f")
done < <(find "$dir" -path '*/esp/baretop/results/*.json' 2>/dev/null | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "FAIL schema: no results file under $dir"; exit 1
fi
if out=$(python3 tests/suite/lib/check-results-schema.py --files-only report/results.schema.json \
           report/results.h "${files[@]}" 2>&1); then
  echo "ok   schema: the ${#files[@]} results files under $dir are valid against report/results.schema.json" \
       "($n_planted planted by the test left out)"
else
  echo "$out" | grep -v '^ok ' | sed 's/^/     /'
  echo "FAIL schema: results files under $dir"; exit 1
fi

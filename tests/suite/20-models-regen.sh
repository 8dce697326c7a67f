#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# The committed model tables (metrics/gen/) are exactly what tools/gen-models
# writes from the vendor files: regenerate into a scratch folder and diff.
set -euo pipefail
ref=../shared/reference
if [ ! -d "$ref" ]; then
  echo "SKIP: $ref is absent, cannot regenerate metrics/gen (the committed tables are used as they are)"
  exit 77  # skipped (tests/run-all.sh counts it so)
fi
make -s build/gen-models >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
build/gen-models "$ref" "$out" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
n=0
fail=0
for f in "$out"/*.c; do
  n=$((n + 1))
  if ! cmp -s "$f" "metrics/gen/$(basename "$f")"; then
    echo "DIFFERS: metrics/gen/$(basename "$f")"
    diff -u "metrics/gen/$(basename "$f")" "$f" | head -20
    fail=1
  fi
done
for f in metrics/gen/*.c; do
  [ -e "$out/$(basename "$f")" ] || { echo "STALE: $f is not generated any more"; fail=1; }
done
# grep -c exits 1 when it counts 0: not a failure of this step (pipefail, -e)
notes=$(grep -c '^note:' "$out/log" || true)
echo "generator notes (vendor data quirks, see log): $notes"
[ $fail -eq 0 ] && echo "ok: $n generated files in metrics/gen are byte-identical to a fresh run of tools/gen-models on $ref"
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~3s
# The committed model tables (metrics/gen/) are exactly what tools/gen-models
# writes from the vendor files: regenerate into a scratch folder and diff.
# The same for the atlas's built-in event lists (validate/gen/atlas-lists.c,
# tools/gen-atlas), which hold names and encodings only: no vendor
# description field.
set -euo pipefail
ref=../shared/reference
if [ ! -d "$ref" ]; then
  echo "SKIP: $ref is absent, cannot regenerate metrics/gen (the committed tables are used as they are)"
  exit 77  # skipped (tests/run-all.sh counts it so)
fi
make -s build/gen-models build/gen-atlas >/dev/null
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
build/gen-atlas "$ref" "$out/atlas-lists.c" >"$out/atlas-log" 2>&1 || { cat "$out/atlas-log"; exit 1; }
if cmp -s "$out/atlas-lists.c" validate/gen/atlas-lists.c; then
  echo "ok: validate/gen/atlas-lists.c is byte-identical to a fresh run of tools/gen-atlas: $(head -1 "$out/atlas-log" | sed 's/^gen-atlas: //')"
else
  echo "DIFFERS: validate/gen/atlas-lists.c"
  diff -u validate/gen/atlas-lists.c "$out/atlas-lists.c" | head -20
  fail=1
fi
if grep -qE 'Description|"PublicDescription"' validate/gen/atlas-lists.c; then
  echo "FAIL: validate/gen/atlas-lists.c holds a vendor description field"
  fail=1
fi
# grep -c exits 1 when it counts 0: not a failure of this step (pipefail, -e)
notes=$(grep -c '^note:' "$out/log" || true)
echo "generator notes (vendor data quirks, see log): $notes"
[ $fail -eq 0 ] && echo "ok: $n generated files in metrics/gen are byte-identical to a fresh run of tools/gen-models on $ref"
exit $fail

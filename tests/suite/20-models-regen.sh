#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~3s
# The committed model tables (metrics/gen/) are exactly what tools/gen-models
# writes from the vendor files: regenerate into a scratch folder and diff.
# The same for the atlas's built-in event lists (validate/gen/atlas-lists.c,
# tools/gen-atlas), which hold names and encodings only: no vendor
# description field, and for the published retire latencies
# (tools/gen-retlat): metrics/gen/rl-intel.c from Intel's files under
# ../shared/reference, metrics/gen/rl-pmu-tools.c from a pmu-tools tree
# (BT_PMU_TOOLS=DIR: a checkout, or a git directory whose HEAD is read with
# git show; else ../shared/reference/pmu-tools where it exists, a folder of
# its <cpu>-retlat.json taken to be at the commit the table names), checked
# when there is one: pmu-tools is no Debian package, and the reference holds
# Intel's files only.
set -euo pipefail
ref=../shared/reference
if [ ! -d "$ref" ]; then
  echo "SKIP: $ref is absent, cannot regenerate metrics/gen (the committed tables are used as they are)"
  exit 77  # skipped (tests/run-all.sh counts it so)
fi
make -s build/gen-models build/gen-atlas build/gen-retlat >/dev/null
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
  case $(basename "$f") in rl-*.c) continue ;; esac  # tools/gen-retlat's, below
  [ -e "$out/$(basename "$f")" ] || { echo "STALE: $f is not generated any more"; fail=1; }
done
# the published retire latencies
mkdir -p "$out/rl" "$out/pt"
pt=${BT_PMU_TOOLS:-}
[ -z "$pt" ] && [ -d "$ref/pmu-tools" ] && pt=$ref/pmu-tools
commit=$(sed -n 's/.*pmu-tools [a-z]*-retlat.json (commit \([0-9a-f]*\)).*/\1/p' metrics/gen/rl-pmu-tools.c | head -1)
if [ -n "$pt" ] && git --git-dir="$pt" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  commit=$(git --git-dir="$pt" rev-parse HEAD)
  for f in lnl arl mtl; do git --git-dir="$pt" show "HEAD:$f-retlat.json" >"$out/pt/$f-retlat.json"; done
  pt=$out/pt
elif [ -n "$pt" ] && git -C "$pt" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  commit=$(git -C "$pt" rev-parse HEAD)
fi
if [ -n "$pt" ]; then
  build/gen-retlat "$ref" "$out/rl" "$pt" "$commit" >"$out/rl-log" 2>&1 || { cat "$out/rl-log"; exit 1; }
else
  build/gen-retlat "$ref" "$out/rl" >"$out/rl-log" 2>&1 || { cat "$out/rl-log"; exit 1; }
fi
for f in rl-intel.c rl-pmu-tools.c; do
  if [ ! -e "$out/rl/$f" ]; then
    echo "SKIP: metrics/gen/$f not regenerated: no pmu-tools tree (BT_PMU_TOOLS=DIR, pmu-tools at commit $commit)"
  elif cmp -s "$out/rl/$f" "metrics/gen/$f"; then
    echo "ok: metrics/gen/$f is byte-identical to a fresh run of tools/gen-retlat"
    n=$((n + 1))
  else
    echo "DIFFERS: metrics/gen/$f"
    diff -u "metrics/gen/$f" "$out/rl/$f" | head -20
    fail=1
  fi
done
grep -v '^note:' "$out/rl-log" | sed 's/^/  /'
if grep -qE 'Description|"PublicDescription"|BUCKETS|SPARK' metrics/gen/rl-*.c; then
  echo "FAIL: metrics/gen/rl-*.c holds more of a vendor file than its numbers"
  fail=1
fi
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
[ $fail -eq 0 ] && echo "ok: $n generated files in metrics/gen are byte-identical to a fresh run of tools/gen-models and tools/gen-retlat on $ref"
exit $fail

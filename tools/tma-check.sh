#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/tma-check.sh CASES_DIR OUT_DIR [check.py options]
#
# Replays every case file under CASES_DIR with `baretop-host replay --json`
# into OUT_DIR (same relative paths), then compares with the expected values
# using ../shared/testdata/check.py (--info --require-all unless options are
# given). Works on any case file of ../shared/testdata/tma/FORMAT.md.
# Environment: BARETOP_HOST (default build/baretop-host), CHECK_PY.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 CASES_DIR OUT_DIR [check.py options]" >&2
  exit 2
fi
cases=${1%/}
out=${2%/}
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
host=${BARETOP_HOST:-$top/build/baretop-host}
check=${CHECK_PY:-$top/../shared/testdata/check.py}
[ -x "$host" ] || { echo "tma-check: $host not built (run make)" >&2; exit 2; }
[ -f "$check" ] || { echo "tma-check: $check not found (set CHECK_PY)" >&2; exit 2; }
opts=("$@")
[ ${#opts[@]} -eq 0 ] && opts=(--info --require-all)
mkdir -p "$out"
n=0
failed=0
while IFS= read -r -d '' f; do
  rel=${f#"$cases"/}
  # only case files: they have "counts" (check.py skips anything without "expected")
  grep -q '"counts"' "$f" || continue
  mkdir -p "$out/$(dirname "$rel")"
  if ! "$host" replay "$f" --json >"$out/$rel" 2>"$out/$rel.err"; then
    echo "tma-check: replay failed for $rel: $(cat "$out/$rel.err")" >&2
    rm -f "$out/$rel"
    failed=$((failed + 1))
  fi
  rm -f "$out/$rel.err"
  n=$((n + 1))
done < <(find "$cases" -name '*.json' ! -name '*.thresh.json' -print0 | sort -z)
echo "tma-check: replayed $n case files ($failed failed) into $out"
python3 "$check" "$cases" "$out" "${opts[@]}"
rc=$?
[ $failed -eq 0 ] || rc=1
exit $rc

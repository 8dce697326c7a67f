#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/tma-check.sh CASES_DIR OUT_DIR [check.py options]
#
# Replays every case file under CASES_DIR with `baretop-host replay --json`
# into OUT_DIR (same relative paths), then compares with the expected values
# using ../shared/testdata/check.py (default options: --info --require-all).
# Works on any tree of case files in the ../shared/testdata/tma/FORMAT.md format.
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
# case files are JSON objects with "counts"; check.py itself skips anything
# without "expected"
mapfile -d '' files < <(find "$cases" -name '*.json' ! -name '*.thresh.json' -print0 | sort -z |
                          xargs -0 -r grep -lZ '"counts"')
if [ ${#files[@]} -eq 0 ]; then
  echo "tma-check: no case files under $cases" >&2
  exit 1
fi
rc=0
# one process per batch of files: models are compiled once per batch
printf '%s\0' "${files[@]}" | xargs -0 -n 400 "$host" replay --json --out-dir "$out" --base "$cases" || rc=1
[ $rc -eq 0 ] || echo "tma-check: some files could not be replayed (see above)" >&2
echo "tma-check: replayed ${#files[@]} case files from $cases into $out"
python3 "$check" "$cases" "$out" "${opts[@]}" || rc=1
exit $rc

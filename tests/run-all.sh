#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite: what `make test` and CI (.ci/run) run.
#   1. install missing Debian packages (tools/setup.sh)
#   2. build everything with gcc and with clang, -Wall -Wextra -Werror
#   3. hosted unit tests under ASan + UBSan
#   4. every tests/suite/*.sh in name order (vectors, fuzzing, QEMU, ...)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
failed=()
t0=$(date +%s)

step() {
  local name=$1; shift
  local s=$(date +%s)
  echo "==== $name"
  if "$@"; then
    echo "==== $name: ok ($(( $(date +%s) - s ))s)"
  else
    echo "==== $name: FAILED ($(( $(date +%s) - s ))s)"
    failed+=("$name")
  fi
}

step "setup (Debian packages)" bash tools/setup.sh
step "build, gcc" make -j"$jobs" all
step "build, clang" make -j"$jobs" CC=clang all
step "unit tests, gcc + ASan/UBSan" make -j"$jobs" SAN=1 check
for s in tests/suite/*.sh; do
  [ -e "$s" ] || continue
  step "$(basename "$s" .sh)" bash "$s"
done

echo
echo "suite took $(( $(date +%s) - t0 ))s"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all steps passed"

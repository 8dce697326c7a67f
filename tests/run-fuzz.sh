#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs each libFuzzer target for FUZZ_SECONDS, starting from its committed seed
# corpus (tests/fuzz/corpus/<target>/) copied to a scratch folder, so the
# tree is never modified (unless FUZZ_KEEP=1: tests/fuzz/README.md). Any
# crash, leak, UBSan report or timeout fails. FUZZ_JOBS targets run at once
# (default: the CPUs; each has its own scratch corpus and log), their lines
# printed in the order the targets were given.
set -u
secs=${FUZZ_SECONDS:-15}
jobs=${FUZZ_JOBS:-$(nproc)}
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT

# one BIN: fuzzes one target; prints its lines, exit 1 when it failed
one() {
  local bin=$1 name work seeds log runs before fail=0
  name=$(basename "$bin")
  work=$(mktemp -d)
  seeds=tests/fuzz/corpus/${name#fuzz-}
  [ -d "$seeds" ] && cp -r "$seeds/." "$work/"
  log=$(mktemp)
  if "$bin" "$work" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$work/" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    echo "ok   $name: ${runs:-?} inputs in ${secs}s, no crash, leak or UB"
    # FUZZ_KEEP=1: what the run grew goes back to the committed corpus,
    # only the inputs that add coverage (tests/fuzz/README.md)
    if [ "${FUZZ_KEEP:-0}" = 1 ]; then
      mkdir -p "$seeds"
      before=$(ls "$seeds" | wc -l)
      "$bin" -merge=1 "$seeds" "$work" >/dev/null 2>&1 || echo "FAIL $name: corpus merge"
      echo "     $name: corpus/${name#fuzz-} $before -> $(ls "$seeds" | wc -l) inputs"
    fi
  else
    echo "FAIL $name"; tail -40 "$log"; fail=1
    ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null
  fi
  rm -rf "$work" "$log"
  return $fail
}

i=0
for bin in "$@"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  ( one "$bin" >"$res/$i.out" 2>&1; echo $? >"$res/$i.rc" ) &
  i=$((i + 1))
done
wait
fail=0
for ((j = 0; j < i; j++)); do
  cat "$res/$j.out"
  [ "$(cat "$res/$j.rc" 2>/dev/null)" = 0 ] || fail=1
done
exit $fail

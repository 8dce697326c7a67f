#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# How many instructions that are not the workload's sit inside the counting
# window of the built baretop.efi (gcc and clang builds): everything from the
# WRMSR that starts the counters to the WRMSR that stops them, disassembled
# from the binary itself. The limit is 8: the measurement harness promises at
# most 8 instructions in the window that are not the workload's (today 4
# besides the two WRMSRs, as README.md's "What a run does" says); the window
# routine is arch/x86-guarded.S, bt_hw_run_window.
set -uo pipefail
limit=8
fail=0
make -s -j"$(nproc)" efi >/dev/null && make -s -j"$(nproc)" CC=clang efi >/dev/null || { echo "FAIL build"; exit 1; }

for so in build/efi/baretop.so build/efi-clang/baretop.so; do
  dis=$(objdump -d --no-show-raw-insn "$so")
  # Instructions from the start label up to (not including) the stop label,
  # then the first instruction at the stop label.
  start=$(awk '/<bt_hw_window_start_insn>:/{on=1; next} /<bt_hw_window_stop_insn>:/{exit} on && /^ +[0-9a-f]+:/' <<<"$dis")
  stop=$(awk '/<bt_hw_window_stop_insn>:/{on=1; next} on && /^ +[0-9a-f]+:/{print; exit}' <<<"$dis")
  first=$(head -1 <<<"$start" | awk '{print $2}')
  stop_insn=$(awk '{print $2}' <<<"$stop")
  inside=$(tail -n +2 <<<"$start")
  n_inside=$(grep -c . <<<"$inside")
  total=$((n_inside + 2))
  if [ "$first" != wrmsr ] || [ "$stop_insn" != wrmsr ]; then
    echo "FAIL $so: the window is not delimited by two WRMSRs (found '$first' ... '$stop_insn')"
    fail=1; continue
  fi
  echo "$so: between the start and stop WRMSR:"
  sed 's/^ */      /' <<<"$inside"
  if [ "$total" -le "$limit" ]; then
    echo "ok   $so: $n_inside foreign instructions between the WRMSRs, $total counting both WRMSRs (limit $limit)"
  else
    echo "FAIL $so: $total foreign instructions in the window (limit $limit)"; fail=1
  fi
  # The workload is called, not inlined: the 'call' must be there.
  grep -q "call" <<<"$inside" || { echo "FAIL $so: no call to the workload in the window"; fail=1; }
done
exit $fail

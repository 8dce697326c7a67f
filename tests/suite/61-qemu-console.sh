#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~14s
# The UEFI console: baretop.efi in QEMU + OVMF counts three workloads with the
# SIMULATED PMU (each workload's model, every node to level 6), and
# tests/qemu/check-console.py reads the console against the results file:
# tree lines within 79 columns, a bar per level-1 node as long as its value,
# progress lines for every workload and counter group but none inside a tree,
# and in serial.log the attributes OVMF's terminal sends for SetAttribute on
# exactly the flagged rows (yellow) and the bottleneck path (light red).
# The checker is run on broken copies too, to prove each check can fail.
# Hosted: baretop-host run writes no escape and no '\r' when stdout is not a
# terminal, ANSI colours with --color=always, and refuses --color=sometimes.
set -uo pipefail
out=build/qemu/console
mkdir -p "$out"
make -s -j"$(nproc)" efi host >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
t0=$(date +%s)
bash qemu/run.sh --cpu Skylake-Client --out "$out" --timeout 120 \
  --args "-w multiply1 -w ptr-chase-dram -w alu-independent --reps 1 --warmups 0 --sim --level 6" \
  >/dev/null 2>"$out.err"
rc=$?
secs=$(( $(date +%s) - t0 ))
if [ $rc -ne 0 ]; then
  echo "FAIL exit status $rc"; tail -25 "$out/console.txt"; exit 1
fi
echo "ok   baretop.efi counted 3 workloads in QEMU (${secs}s)"
python3 tests/qemu/check-console.py --self-test "$out/serial.log" "$out/console.txt" \
  "$out/esp/baretop/results/000001.json" || fail=1
grep -q "SIMULATED: every count below comes from the simulated PMU" "$out/console.txt" \
  || { echo "FAIL the console does not say the counts are simulated"; fail=1; }
# Serial stays plain text apart from the attribute escapes console.txt drops:
# no byte outside printable ASCII, CR, LF and ESC from baretop's own output.
from=$(grep -an "^baretop " "$out/serial.log" | head -1 | cut -d: -f1)
if tail -n +"${from:-1}" "$out/serial.log" | LC_ALL=C grep -qaP '[^\x20-\x7e\r\n\x1b]'; then
  echo "FAIL serial.log has bytes that are not plain text after baretop started"; fail=1
else
  echo "ok   serial.log: plain ASCII (with SGR attribute escapes) from baretop's first line on"
fi
# The status line is erased before any other text, on the serial console too:
# after "workload N of M ..." (and the attribute reset) comes a CR, never text.
n_run=$(LC_ALL=C grep -caP 'workload \d+ of \d+ [^\r]*?\e\[0m(\e\[\d+m)*[^\r\e]' "$out/serial.log")
n_status=$(LC_ALL=C grep -caP 'workload \d+ of \d+ ' "$out/serial.log")
if [ "$n_run" = 0 ] && [ "$n_status" -gt 0 ]; then
  echo "ok   serial.log: each of the $n_status lines with a status line has it erased (CR) before other text"
else
  echo "FAIL serial.log: $n_run status lines run into the next text (of $n_status)"; fail=1
fi
bash tests/suite/lib/esp-results-schema.sh "$out" || fail=1

# Hosted: plain text unless stdout is a terminal or --color=always.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
host() { build/baretop-host run --sim=skl --quick -w multiply1 -w alu-independent --level 2 \
  --reps 1 --warmups 0 --results-dir "$work/r" "$@"; }
host >"$work/plain.txt" 2>&1 || { echo "FAIL hosted run"; fail=1; }
host --color=always >"$work/color.txt" 2>&1 || { echo "FAIL hosted run --color=always"; fail=1; }
n_esc=$(grep -c $'\e' "$work/plain.txt"); n_cr=$(grep -c $'\r' "$work/plain.txt")
n_col=$(grep -c $'\e\[1;31m' "$work/color.txt")
if [ "$n_esc" = 0 ] && [ "$n_cr" = 0 ] && [ "$n_col" -gt 0 ]; then
  echo "ok   hosted, stdout a file: no escape, no CR, no progress line; --color=always: $n_col light-red lines"
else
  echo "FAIL hosted: $n_esc escapes and $n_cr CRs in plain output, $n_col light-red lines with --color=always"; fail=1
fi
build/baretop-host run --color=sometimes >/dev/null 2>&1
[ $? -eq 2 ] && echo "ok   --color=sometimes is a usage error (exit 2)" \
  || { echo "FAIL --color=sometimes not refused"; fail=1; }
echo "step time $(( $(date +%s) - t0 ))s"
exit $fail

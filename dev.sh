#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The two commands of the README, usable on a fresh Debian 12 machine as root:
#   ./dev.sh run [--no-sim] [QEMU options]
#                                 install what is missing, build, boot baretop in QEMU.
#                                 QEMU has no PMU: by default baretop counts with its
#                                 simulated PMU (--sim=skl, labelled SIMULATED) so the
#                                 whole job shows: the Top-Down tree of each workload on
#                                 the console, the results copied back from the ESP, the
#                                 HTML report written next to them, and a one-screen
#                                 summary with both paths. --no-sim boots the plain run
#                                 (workloads timed only).
#   ./dev.sh test                 install what is missing, run the whole test suite
#   ./dev.sh test-host            the same without the steps that boot QEMU
# QEMU options are qemu/run.sh's; --args adds baretop options after --sim=skl.
# Once the packages are installed, `make test` does the same, and `make run`
# boots the plain run (as --no-sim).
set -euo pipefail
cd "$(dirname "$0")"
bash tools/setup.sh

first_run() {
  local sim=1 out=build/qemu/run args="" a=() rc=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --no-sim) sim=0; shift ;;
      --out) out=$2; a+=("$1" "$2"); shift 2 ;;
      --args) args=$2; shift 2 ;;
      *) a+=("$1"); shift ;;
    esac
  done
  make -j"$(nproc)" efi host
  # 3 CPUs: a two-core workload runs on two APs while baretop's CPU waits in
  # the firmware (app/on-cpu.h); an --smp given wins.
  if [ "$sim" = 0 ]; then
    exec bash qemu/run.sh --show --smp 3 ${args:+--args "$args"} "${a[@]+"${a[@]}"}"
  fi
  # TCG is slow and the simulated PMU runs every counter group of every
  # workload: a longer limit than qemu/run.sh's (a --timeout given wins).
  bash qemu/run.sh --show --smp 3 --timeout 1800 --args "--sim=skl${args:+ $args}" "${a[@]+"${a[@]}"}" || rc=$?
  local results
  results=$(ls -1 "$out/esp/baretop/results/"[0-9]*.json 2>/dev/null | tail -1 || true)
  if [ -z "$results" ]; then
    echo "dev.sh run: no results file came back from the ESP (qemu/run.sh exit status $rc)" >&2
    [ "$rc" -ne 0 ] && exit "$rc"
    exit 1
  fi
  local html=${results%.json}.html
  build/baretop-host report "$results" --html "$html"
  python3 qemu/summary.py "$results" "$html"
  exit "$rc"
}

case "${1:-}" in
  run)  shift; first_run "$@" ;;
  test) exec make test ;;
  test-host) exec make test-host ;;
  *)    echo "usage: ./dev.sh run [--no-sim] [qemu/run.sh options] | ./dev.sh test | ./dev.sh test-host" >&2; exit 2 ;;
esac

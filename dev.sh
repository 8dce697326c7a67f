#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The two commands of the README, usable on a fresh Debian 12 machine as root:
#   ./dev.sh run [QEMU options]   install what is missing, build, boot baretop in QEMU
#   ./dev.sh test                 install what is missing, run the whole test suite
#   ./dev.sh test-host            the same without the steps that boot QEMU
# Once the packages are installed, `make run` and `make test` do the same.
set -euo pipefail
cd "$(dirname "$0")"
bash tools/setup.sh
case "${1:-}" in
  run)  shift; make -j"$(nproc)" efi && exec bash qemu/run.sh --show "$@" ;;
  test) exec make test ;;
  test-host) exec make test-host ;;
  *)    echo "usage: ./dev.sh run [qemu/run.sh options] | ./dev.sh test | ./dev.sh test-host" >&2; exit 2 ;;
esac

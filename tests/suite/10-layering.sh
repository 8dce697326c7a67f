#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~5s
# The layering rules (README.md, "Layout"): UEFI headers in efi/ only,
# privileged instructions in arch/ only, each folder includes only the
# folders below it (every folder the product builds, each program of tools/
# and tools/baretop-host/fleet included), no file-level import cycle (from
# the symbols the hosted objects define and use, tools/ included), no function-local static without a reason,
# and no host-only code (analysis/, host/, *-host.c) in baretop.efi (from the
# symbols of both builds). The checker first shows that each rule can fail,
# then checks the tree.
set -uo pipefail
make -s -j"$(nproc)" host efi >/dev/null || { echo "FAIL build"; exit 1; }
python3 tests/suite/lib/layering.py --self-test || exit 1
python3 tests/suite/lib/layering.py build/host build/efi

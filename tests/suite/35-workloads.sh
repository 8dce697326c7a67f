#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# The built-in workloads, hosted: the default suite in the quick preset runs
# with the gcc and the clang build; every workload is deterministic (same
# checksum in every run), multiply1/2/3 agree, and both compilers give the
# same checksum for every workload (what the QEMU test relies on when it
# compares the EFI app's checksums with the hosted ones).
set -euo pipefail
make -s -j"$(nproc)" host >/dev/null
make -s -j"$(nproc)" CC=clang host >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
build/baretop-host workloads --quick --json --reps 3 >"$out/gcc.json"
end=$(date +%s.%N)
build/baretop-host-clang workloads --quick --json --reps 3 >"$out/clang.json"
python3 - "$out/gcc.json" "$out/clang.json" "$start" "$end" <<'PY'
import json, sys
gcc, clang = (json.load(open(p)) for p in sys.argv[1:3])
seconds = float(sys.argv[4]) - float(sys.argv[3])
fail = []
def by_name(doc):
    return {w["name"]: w for w in doc["workloads"]}
g, c = by_name(gcc), by_name(clang)
for name, w in g.items():
    if w["status"] == "skipped" and gcc["cpu"]["logical_cpus"] < 2:
        print(f"skip {name}: {w['error']}")
        continue
    if w["status"] != "ok":
        fail.append(f"{name}: {w['status']} {w.get('error', '')}")
        continue
    if c[name]["status"] != "ok" or c[name]["checksum"] != w["checksum"]:
        fail.append(f"{name}: gcc {w['checksum']} != clang {c[name].get('checksum')}")
mm = {g[n]["checksum"] for n in ("multiply1", "multiply2", "multiply3")}
if len(mm) != 1:
    fail.append(f"multiply1/2/3 checksums differ: {mm}")
total_ms = sum(w["time_ns"]["median"] for w in g.values() if w["status"] == "ok") / 1e6
print(f"ok   {len(g)} workloads (quick): deterministic over 4 runs, gcc == clang checksums, "
      f"multiply1 == multiply2 == multiply3 ({mm.pop() if len(mm) == 1 else '?'})")
print(f"     one pass of the quick suite: {total_ms:.1f} ms of measured bodies; "
      f"whole command incl. setup and 4 runs each: {seconds:.2f} s hosted "
      f"(x50-100 under QEMU TCG)")
for f in fail:
    print("FAIL", f)
sys.exit(1 if fail else 0)
PY

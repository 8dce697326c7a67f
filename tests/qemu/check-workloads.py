#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the workloads of a baretop results file run in QEMU against the
hosted build of the same workload code (baretop-host workloads --json).

usage: check-workloads.py RESULTS.json HOSTED.json [--expect-all]
"""
import json
import sys


def main():
    res_path, host_path = sys.argv[1], sys.argv[2]
    expect_all = "--expect-all" in sys.argv[3:]
    with open(res_path) as f:
        res = json.load(f)
    with open(host_path) as f:
        host = {w["name"]: w for w in json.load(f)["workloads"]}
    run = res["run"]
    fails = []
    if run["counted"]:
        fails.append("run.counted is true in QEMU TCG (there is no PMU)")
    if not run["not_counted_reason"]:
        fails.append("run.not_counted_reason is empty")
    names = [w["name"] for w in run["workloads"]]
    if expect_all and sorted(names) != sorted(host):
        fails.append(f"workloads differ: EFI {sorted(names)} vs hosted {sorted(host)}")
    for w in run["workloads"]:
        n = w["name"]
        if w["state"] != "ran":
            fails.append(f"{n}: {w['state']}: {w['reason']}")
            continue
        h = host.get(n)
        if h is None:
            fails.append(f"{n}: not in the hosted run")
            continue
        if h["params"] != w["params"]:
            fails.append(f"{n}: params {w['params']!r} vs hosted {h['params']!r}")
        if int(w["checksum"], 16) != int(h["checksum"], 16):
            fails.append(f"{n}: checksum {w['checksum']} vs hosted {h['checksum']}")
        t = w.get("time")
        if not t or t["runs"] != run["reps"] or not (0 < t["tsc_min"] <= t["tsc_median"] <= t["tsc_max"]):
            fails.append(f"{n}: timing {t}")
        if not w["not_counted"]:
            fails.append(f"{n}: no reason for the missing counts")
    if fails:
        print(f"{res_path}: {len(fails)} problem(s):")
        for f_ in fails:
            print("  " + f_)
        return 1
    print(f"ok   {res_path}: {len(names)} workloads ran, timed ({run['reps']} runs each), "
          f"checksums equal to the hosted build's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

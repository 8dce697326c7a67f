#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares the Top-Down tree of a baretop results file (one workload,
counted through the simulated PMU) with a vector's expected values: every
tree node within 1e-9 relative (or 1e-12 absolute), every flag equal.

usage: check-tree.py RESULTS.json VECTOR.json
"""
import json
import math
import sys


def near(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= max(1e-12, 1e-9 * max(abs(a), abs(b)))


def main():
    res = json.load(open(sys.argv[1]))
    vec = json.load(open(sys.argv[2]))
    fails = []
    if res.get("simulated") is not True:
        fails.append("results file not labelled simulated")
    w = res["run"]["workloads"]
    if len(w) != 1 or "counted" not in w[0]:
        print(f"{sys.argv[1]}: no counted workload: {w}")
        return 1
    c = w[0]["counted"]
    if not c["simulated"] or "SIMULATED" not in c["input"]:
        fails.append("counted part not labelled simulated: " + c["input"])
    tree = c["tree"]
    values, thresh = tree["values"], tree["thresh"]
    n = 0
    for node, e in vec["expected"].items():
        n += 1
        got = values.get(node, "absent")
        if got == "absent":
            fails.append(f"{node}: missing")
            continue
        if isinstance(got, float) and math.isnan(got):
            got = None
        if not near(got, e["value"]):
            fails.append(f"{node}: {got} != expected {e['value']}")
        if bool(thresh.get(node)) != bool(e["thresh"]):
            fails.append(f"{node}: flag {thresh.get(node)} != expected {e['thresh']}")
    if n < 10:
        fails.append(f"only {n} nodes in the vector")
    if fails:
        print(f"{sys.argv[1]} vs {sys.argv[2]}: {len(fails)} problem(s)")
        for f in fails[:30]:
            print("  " + f)
        return 1
    print(f"     {n} nodes and flags equal ({vec['model']} case {vec['case']}, "
          f"{c['groups']} counter groups)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

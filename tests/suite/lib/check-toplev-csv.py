#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks `baretop-host export --toplev-csv` output against its results file.

usage: check-toplev-csv.py RESULTS.json WORKLOAD CSV
Python's csv module must read CSV into exactly the documented columns
(Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,Idle); every
computed tree node the run measured (not "not_measured") must be a row whose Area is its ancestors
joined by '.', Value its value x 100, Unit '%', Multiplex 100, Description
starting "SIMULATED; " when the counts are simulated; every computed
Info_/Bottleneck_ metric a row with its own value; every retire-latency input
with a value a row after them all (the side section), Area 'EVENT:R', Value its
mean, Unit 'cycles', Description naming its source and, where sampled, its
samples; Bottleneck '<==' on the deepest node of the bottleneck path and nowhere
else; nothing else.
"""
import csv
import json
import math
import sys

COLUMNS = ["Area", "Value", "Unit", "Description", "Sample", "Stddev", "Multiplex", "Bottleneck", "Idle"]
res, workload, path = sys.argv[1:4]
doc = json.load(open(res))
w = next(w for w in doc["run"]["workloads"] if w["name"] == workload)
tree = w["counted"]["tree"]
nodes = tree["nodes"]
fail = []

with open(path, newline="") as f:
    reader = csv.DictReader(f)
    if reader.fieldnames != COLUMNS:
        sys.exit(f"FAIL columns {reader.fieldnames}")
    rows = list(reader)
for r in rows:
    if None in r or any(v is None for v in r.values()):
        fail.append(f"row with a wrong field count: {r}")


def full_name(n):
    chain = [n]
    while nodes[chain[-1]]["parent"]:
        chain.append(nodes[chain[-1]]["parent"])
    return ".".join(reversed(chain))


want = {}
for name, nd in nodes.items():
    # a tree node the run did not measure (drill-down, --level N) is not
    # exported, even with a value from events counted for other nodes
    if nd["value"] is None or (nd["kind"] == "tree" and nd["state"] == "not_measured"):
        continue
    if nd["kind"] == "tree":
        want[full_name(name)] = (nd["value"] * 100, "%")
    elif nd["kind"] in ("info", "bottleneck"):
        want[name] = (nd["value"], "")
rl = {f"{ev}:R": v for ev, v in w["counted"].get("retire_latency", {}).items() if v["mean"] is not None}
for area, v in rl.items():
    want[area] = (v["mean"], "cycles")
got = {r["Area"]: r for r in rows}
if len(got) != len(rows):
    fail.append("an Area appears twice")
if set(got) != set(want):
    fail.append(f"areas differ: missing {sorted(set(want) - set(got))[:5]}, extra {sorted(set(got) - set(want))[:5]}")
for area, (value, unit) in want.items():
    r = got.get(area)
    if not r:
        continue
    v = float(r["Value"])
    if not math.isclose(v, value, rel_tol=1e-12, abs_tol=1e-12):
        fail.append(f"{area}: Value {v} != {value}")
    if r["Unit"] != unit or r["Multiplex"] != "100":
        fail.append(f"{area}: Unit {r['Unit']!r} Multiplex {r['Multiplex']!r}")
for area, v in rl.items():
    r = got.get(area)
    if not r:
        continue
    d = r["Description"]
    if f"retire latency; source {v['source']}" not in d or (
            v.get("samples") is not None and f"samples {v['samples']}" not in d):
        fail.append(f"{area}: Description {d!r} lacks the source {v['source']} or samples {v.get('samples')}")
first_rl = min((i for i, r in enumerate(rows) if r["Area"] in rl), default=len(rows))
if any(r["Area"] not in rl for r in rows[first_rl:]):
    fail.append("a node or metric row after the retire latencies")
# Simulated counts say so on every row, first thing in Description.
if w["counted"].get("simulated"):
    unsaid = [r["Area"] for r in rows if not r["Description"].startswith("SIMULATED; ")]
    if unsaid:
        fail.append(f"rows without SIMULATED in Description: {unsaid[:3]}")
path_nodes = tree["bottleneck_path"]
marked = [r["Area"] for r in rows if r["Bottleneck"]]
want_marked = [full_name(path_nodes[-1])] if path_nodes else []
if marked != want_marked or any(r["Bottleneck"] not in ("", "<==") for r in rows):
    fail.append(f"Bottleneck marks {marked}, want {want_marked}")
# each child after its parent (when the parent has a value and so a row)
order = [r["Area"] for r in rows]
for i, a in enumerate(order):
    if "." in a and a.rsplit(".", 1)[0] in order[i:]:
        fail.append(f"{a} before its parent")
        break
if fail:
    print(f"FAIL {path}:")
    for m in fail[:10]:
        print("    " + m)
    sys.exit(1)
n_tree = sum(1 for a in want if want[a][1] == "%")
print(f"ok   {path}: csv module reads {len(rows)} rows x {len(COLUMNS)} columns; {n_tree} tree nodes "
      f"(percent), {len(rows) - n_tree - len(rl)} metrics and {len(rl)} retire latencies equal the "
      f"results file; '<==' on {want_marked}")

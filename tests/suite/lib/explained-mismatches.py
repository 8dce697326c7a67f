#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Which oracle-vector mismatches does baretop explain, event by event?

A vector run through the simulated PMU may legitimately differ from the
expected tree when its counts are ones no PMU can produce: a PERF_METRICS
slot count that no 8-bit field gives, or two events with one encoding and
different counts. baretop names such inputs in its notes. A mismatching
node is explained only if one of the events a note names is an input of
that node (for a threshold mismatch: of any metric its threshold reads),
as Intel's perfmon metric file lists the node's inputs. Anything else is
unexplained and printed.

usage: explained-mismatches.py CHECK_OUTPUT RESULTS_DIR CASES_ROOT REFERENCE_ROOT
  CHECK_OUTPUT    check.py's report (MISMATCH lines)
  RESULTS_DIR     RESULTS_DIR/<MODEL>-<NNN>/000001.json from baretop
  CASES_ROOT      the vectors (tma/<MODEL>/<NNN>.json)
  REFERENCE_ROOT  the vendor files the vectors name in source_versions
Exit status 0 if every mismatch is explained.
"""
import json
import re
import sys

NOTE_PATTERNS = [
    re.compile(r"count file's (PERF_METRICS\.[A-Z_]+)"),
    re.compile(r"count file gives (\S+) and (\S+), which have the same encoding"),
]


def noted_events(result):
    run = result["run"]
    notes = list(run["counting"]["notes"])
    for w in run["workloads"]:
        notes += w.get("counted", {}).get("notes", [])
    events = set()
    for note in notes:
        for pat in NOTE_PATTERNS:
            for m in pat.finditer(note):
                events.update(m.groups())
    return events


def metric_name(threshold_ref):
    # "metric_TMA_..Light_Operations(%)" -> "Light_Operations"
    name = threshold_ref
    if name.startswith("metric_TMA_"):
        name = name[len("metric_TMA_"):]
    name = name.lstrip(".")
    return re.sub(r"\(.*\)$", "", name)


def canonical(event):
    return event.replace(":perf_metrics", "")


class Reference:
    def __init__(self, root):
        self.root = root
        self.files = {}

    def metrics(self, path):
        if path not in self.files:
            with open(f"{self.root}/{path}") as f:
                self.files[path] = {m["MetricName"]: m for m in json.load(f)["Metrics"]}
        return self.files[path]

    def inputs(self, path, node, kind):
        metrics = self.metrics(path)
        if node not in metrics:
            return None
        names = [node]
        if kind == "thresh":
            names += [metric_name(t["Value"])
                      for t in metrics[node].get("Threshold", {}).get("ThresholdMetrics", [])]
        events = set()
        for n in names:
            for e in metrics.get(n, {}).get("Events", []):
                events.add(canonical(e["Name"]))
        return events


def main(check_output, results_dir, cases_root, reference_root):
    ref = Reference(reference_root)
    unexplained, explained = [], 0
    with open(check_output) as f:
        lines = [l.split() for l in f if l.startswith("MISMATCH")]
    for words in lines:
        case, node, kind = words[1], words[2], words[3]
        model, number = case.split("/")[0], case.split("/")[-1].removesuffix(".json")
        with open(f"{cases_root}/{case}") as f:
            vector = json.load(f)
        with open(f"{results_dir}/{model}-{number}/000001.json") as f:
            result = json.load(f)
        source = vector["source_versions"]["oracle_n"]
        if source.get("kind") != "perfmon-native":
            unexplained.append(f"{case} {node} {kind}: no per-metric input list for {source}")
            continue
        inputs = ref.inputs(source["file"], node, kind)
        noted = noted_events(result)
        if inputs is None:
            unexplained.append(f"{case} {node} {kind}: not in {source['file']}")
        elif not inputs & noted:
            unexplained.append(f"{case} {node} {kind}: baretop's notes name {sorted(noted) or 'nothing'}, "
                               f"none an input of the node")
        else:
            explained += 1
    print(f"{explained} mismatching values explained by a noted input, {len(unexplained)} not")
    for u in unexplained:
        print("UNEXPLAINED " + u)
    return 1 if unexplained else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs for fuzz-model-perfmon, fuzz-model-perf and fuzz-retire-latency
from the vendor files in ../shared/reference (read, never copied): TMA subsets
of Intel's perfmon metrics files, perf-format files and AMD's pipeline.json,
each followed by the events they use (input layout: fuzz-model-files.h), with
every description and other field the loaders do not read left out.

    python3 tests/fuzz/make-model-seeds.py REFERENCE OUTDIR

writes OUTDIR/model-perfmon, OUTDIR/model-perf, OUTDIR/retire-latency; the
fuzzer's -merge=1 then keeps only the seeds that add coverage
(tests/fuzz/README.md)."""
import json, os, re, sys

ref, out = sys.argv[1], sys.argv[2]
EV_KEYS = ("EventName", "EventCode", "UMask", "UMaskExt", "Counter", "CounterHTOff", "CounterMask",
           "Invert", "EdgeDetect", "AnyThread", "Equal", "TakenAlone", "MSRIndex", "MSRValue")
PM_KEYS = ("MetricName", "LegacyName", "Category", "Level", "ParentCategory", "UnitOfMeasure",
           "Events", "Constants", "Formula", "Threshold")
PF_KEYS = ("MetricName", "MetricExpr", "MetricGroup", "MetricThreshold", "Unit", "ScaleUnit")


def write(kind, name, metrics, events, prefix=""):
    os.makedirs(f"{out}/{kind}", exist_ok=True)
    text = prefix + json.dumps(metrics, separators=(",", ":"))
    if events is not None:
        text += "\n#EVENTS#\n" + json.dumps(events, separators=(",", ":"))
    # whitelists above: no vendor prose (no description field) gets in
    assert "Description" not in text
    open(f"{out}/{kind}/{name}", "w").write(text)


def events_of(paths, names, perf_layout):
    evs = []
    for p in paths:
        j = json.load(open(p))
        for e in (j if isinstance(j, list) else j["Events"]):
            if e.get("EventName") in names:
                evs.append({k: e[k] for k in EV_KEYS if k in e})
    return evs if perf_layout else {"Events": evs}


# Intel perfmon native: all TMA metrics, and levels <= 1 and <= 2 alone
for uarch in sorted(os.listdir(f"{ref}/intel")):
    mdir = f"{ref}/intel/{uarch}/metrics"
    if not os.path.isdir(mdir):
        continue
    for f in sorted(os.listdir(mdir)):
        if not f.endswith("_metrics.json") and "_metrics_" not in f:
            continue
        j = json.load(open(f"{mdir}/{f}"))
        tma = [{k: m[k] for k in PM_KEYS if k in m} for m in j["Metrics"] if m.get("Category") == "TMA"]
        for m in tma:
            if isinstance(m.get("Threshold"), dict):
                m["Threshold"] = {k: v for k, v in m["Threshold"].items() if k in ("Formula", "ThresholdMetrics")}
        evdir = f"{ref}/intel/{uarch}/events"
        evfiles = [f"{evdir}/{e}" for e in sorted(os.listdir(evdir))]
        for top in (1, 2, 99):
            sub = [m for m in tma if not str(m.get("Level", "")).isdigit() or int(m["Level"]) <= top]
            if top < 99:
                keep = {m.get("LegacyName") for m in sub}
                sub = [m for m in sub if not m["MetricName"].startswith(("Info_", "Bottleneck_"))]
                for m in sub:
                    th = m.get("Threshold", {})
                    if any(t.get("Value") not in keep for t in th.get("ThresholdMetrics", [])):
                        m.pop("Threshold", None)
            names = {e["Name"].split(":")[0] for m in sub for e in m.get("Events", [])}
            hdr = {k: j["Header"][k] for k in ("Version", "TmaVersion") if k in j["Header"]}
            write("model-perfmon", f"{f[:-5]}-L{top}", {"Header": hdr, "Metrics": sub},
                  events_of(evfiles, names, False))

# Linux perf format: Intel P-core (IVB), Intel E-core (cpu_atom), AMD pipeline
def perf_seed(name, metric_files, event_files, unit, prefix, perf_events):
    ms = []
    for p in metric_files:
        ms += [{k: m[k] for k in PF_KEYS if k in m} for m in json.load(open(p))
               if "MetricName" in m and m.get("Unit") == unit]
    words = {w for m in ms for w in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", m.get("MetricExpr", "") + " " + m.get("MetricThreshold", ""))}
    words |= {w.split("@")[0] for w in words}
    evs = events_of(event_files, words, perf_events)
    write("model-perf", f"{name}-all", ms, evs, prefix)
    lv = [m for m in ms if re.search(r"(TopdownL|PipelineL)1(;|$)", m.get("MetricGroup", ""))]
    write("model-perf", f"{name}-L1", lv, evs, prefix)

intel = f"{ref}/intel"
if os.path.isdir(f"{intel}/IVB"):
    perf_seed("ivb", [f"{intel}/IVB/perf-format/ivb-metrics.json"], [f"{intel}/IVB/events/ivybridge_core.json"], None, "I", False)
if os.path.isdir(f"{intel}/MTL"):
    perf_seed("mtl-cmt", [f"{intel}/MTL/perf-format/mtl-metrics.json"], [f"{intel}/MTL/events/meteorlake_crestmont_core.json"], "cpu_atom", "E", False)
for zen in ("amdzen4", "amdzen5"):
    d = f"{ref}/amd/{zen}"
    if os.path.isdir(d):
        evf = [f"{d}/{f}" for f in sorted(os.listdir(d)) if f not in ("pipeline.json", "recommended.json")]
        perf_seed(zen, [f"{d}/pipeline.json"], evf, None, "A", True)

# retire latencies: Intel's layout (a few GNR entries), flat, a count file's member
rl = f"{intel}/GNR/metrics/graniterapids_retire_latency.json"
if os.path.isfile(rl):
    data = json.load(open(rl))["Data"]
    os.makedirs(f"{out}/retire-latency", exist_ok=True)
    some = dict(list(data.items())[:6])
    json.dump({"Platform": {"TMA version": "test"}, "Data": some}, open(f"{out}/retire-latency/intel", "w"))
    json.dump({k + ":R": v["MEAN"] for k, v in some.items()}, open(f"{out}/retire-latency/flat", "w"))
    json.dump({"counts": {}, "retire_latency": {k: v["MEAN"] for k, v in some.items()}},
              open(f"{out}/retire-latency/counts-member", "w"))

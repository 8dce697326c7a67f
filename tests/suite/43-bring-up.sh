#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~4s
# --bring-up (README "Bringing up new silicon"): one run validates the
# chosen model's events, then counts the tree; a defect injected into the
# simulated PMU (--sim-defect) that breaks one event the model reads must
# make exactly the nodes whose formulas read it untrusted (named here from
# the model's formulas, not from baretop's output), leave the others their
# values, keep them off the bottleneck path and exit 1; without the defect
# nothing is untrusted and the run exits 0. Two cases: the architectural
# model (ARCH) on the Panther Lake E-core dump, and a forced --model SKL
# whose expectations are read from Intel's skylake_metrics.json. And ARCH
# with PERF_METRICS (the Panther Lake P-core): its architectural events
# cross-check level 1, and a doubled one violates its node's cross-check.
set -uo pipefail
start=$(date +%s)
[ -x build/baretop-host ] || make -s -j2 host >/dev/null
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
vendor=../shared/reference/intel/SKL/metrics/skylake_metrics.json

# NAME EXPECTED-STATUS ARGS...: one bring-up run into $work/NAME/.
run() {
  local name=$1 want=$2; shift 2
  "$bin" run --bring-up --quick "$@" --results-dir "$work/$name" >"$work/$name.out" 2>&1; local rc=$?
  echo "$rc" >"$work/$name.rc"
  if [ "$want" = any ]; then :
  elif [ "$rc" -eq "$want" ]; then echo "ok   $name: exit status $rc"; else bad "$name: exit status $rc, not $want"; fi
  "$bin" report "$work/$name"/*.json >"$work/$name.report" 2>&1 || bad "$name: report failed"
}

# ARCH on the Panther Lake E-core (CPUID 23H.3 = 1F7Fh: slots from
# SLOTS_PER_CYC x cycles, bad speculation counted): each level-1 node is
# its own architectural event over the slots (the ARCH rules of the issue
# that made the model), so doubling Topdown Retiring (C2H/02H) leaves only
# Retiring untrusted among the tree nodes. alu-independent retires most
# slots: Retiring is its bottleneck when nothing is broken.
arch=(--sim-cpuid tests/data/cpuid/ptl-subset.cpuid@4 --level 1 -w alu-independent)
run arch-clean 0 "${arch[@]}"
run arch-defect 1 "${arch[@]}" --sim-defect=double-count:0xc2/0x02
# ARCH on the Panther Lake P-core (CPUID 23H.3 = 1DFFh: Backend Bound,
# Frontend Bound and Retiring enumerated, Bad Speculation not; PERF_METRICS
# from the Lion Cove preset): level 1 from PERF_METRICS, each enumerated
# architectural event over the slots cross-checks it. code-footprint is
# mostly Frontend Bound, so Topdown Frontend Bound (9CH/01H) counted twice
# moves its share far beyond any rounding.
pcore=(--sim-cpuid tests/data/cpuid/ptl-subset.cpuid@0 --level 1 -w code-footprint)
run xc-clean 0 "${pcore[@]}"
run xc-defect 1 "${pcore[@]}" --sim-defect=double-count:0x9c/0x01
# SKL forced: UOPS_ISSUED.ANY (0EH/01H) counted twice fails its check
# against the retired uops.
skl=(--sim=skl --model SKL --level 2 -w multiply1)
run skl-clean 0 "${skl[@]}"
run skl-defect 1 "${skl[@]}" --sim-defect=double-count:0x0e/0x01

python3 - "$work" "$vendor" <<'PY' || fail=1
import glob, json, os, sys
work, vendor = sys.argv[1], sys.argv[2]
failed = False
def bad(msg):
    global failed; failed = True; print("FAIL " + msg)
try:
    import jsonschema
    schema = jsonschema.Draft202012Validator(json.load(open("report/results.schema.json")))
except ImportError:
    schema = None

def load(name):
    f = glob.glob(f"{work}/{name}/*.json")
    if len(f) != 1:
        bad(f"{name}: {len(f)} results files"); return None, None
    d = json.load(open(f[0]))
    if schema:
        errs = list(schema.iter_errors(d))
        if errs: bad(f"{name}: schema: {errs[0].message[:160]}")
    w = d["run"]["workloads"]
    if len(w) != 1 or not w[0].get("counted"):
        bad(f"{name}: no counted workload"); return d, None
    return d, w[0]["counted"]["tree"]

def untrusted(tree):
    return {n: v["untrusted"] for n, v in tree["nodes"].items() if "untrusted" in v}

def check(name, event, expect_tree, expect_any, max_level, path_before):
    d, t = load(name)
    if t is None: return
    checks = [c for c in d["validation"]["checks"] if c["event"] == event and c["verdict"] == "FAIL"]
    if not checks: bad(f"{name}: no FAILed validation check of {event} in the results file")
    u = untrusted(t)
    got_tree = {n for n in u if t["nodes"][n]["kind"] == "tree"}
    if got_tree != expect_tree:
        bad(f"{name}: untrusted tree nodes {sorted(got_tree)}, expected {sorted(expect_tree)}")
    if expect_any is not None and set(u) != expect_any:
        bad(f"{name}: untrusted nodes differ from the model's: only baretop "
            f"{sorted(set(u) - expect_any)}, only the model {sorted(expect_any - set(u))}")
    for n, x in u.items():
        if x["event"] != event or x["verdict"] != "FAIL" or x["check"] not in [c["id"] for c in checks]:
            bad(f"{name}: {n}: untrusted {x}")
    # the others keep their values
    kept = [n for n, v in t["nodes"].items() if v["kind"] == "tree" and v["level"] <= max_level
            and n not in u]
    novalue = [n for n in kept if t["nodes"][n]["value"] is None]
    if not kept or novalue: bad(f"{name}: trusted nodes without a value: {novalue} (of {len(kept)})")
    onpath = [n for n in t["bottleneck_path"] if n in u]
    if onpath: bad(f"{name}: untrusted nodes on the bottleneck path: {onpath}")
    # the untrusted node was the bottleneck without the defect: excluding it mattered
    if path_before and not (set(path_before) & set(u)):
        bad(f"{name}: the clean path {path_before} has no node the defect makes untrusted")
    # every output says so: the report's text names event and check
    rep = open(f"{work}/{name}.report").read()
    if f"untrusted: {event} failed validation (event:{event}@" not in rep:
        bad(f"{name}: the report does not mark the untrusted nodes")
    if not t["bottleneck_path"] and "none (the flagged level-1 nodes are untrusted)" not in rep:
        bad(f"{name}: an empty path does not say the flagged nodes are untrusted")
    con = " ".join(open(f"{work}/{name}.out").read().split())
    if f"untrusted: {event} failed validation (event:{event}@" not in con:
        bad(f"{name}: the console does not mark the untrusted nodes")
    if not failed:
        print(f"ok   {name}: {len(u)} untrusted ({len(got_tree)} tree: {', '.join(sorted(got_tree))}), "
              f"{len(kept)} trusted tree nodes keep values, path {t['bottleneck_path']}")

def clean(name):
    d, t = load(name)
    if t is None: return []
    u = untrusted(t)
    if u: bad(f"{name}: untrusted without a defect: {sorted(u)}")
    if any(c["verdict"] == "FAIL" for c in d["validation"]["checks"]):
        bad(f"{name}: a check FAILed without a defect")
    if not t["bottleneck_path"]: bad(f"{name}: no bottleneck path")
    print(f"ok   {name}: nothing untrusted, {len(d['validation']['checks'])} checks, "
          f"path {t['bottleneck_path']}")
    return t["bottleneck_path"]

p = clean("arch-clean")
check("arch-defect", "Topdown_Retiring", {"Retiring"}, None, 1, p)
# The cross-checks: one per level-1 node whose architectural event the
# P-core enumerates (23H.3 = 1DFFh: bits 8, 10, 11), none for Bad
# Speculation (bit 9 clear).
xc_event = {"Frontend_Bound": "Topdown_Frontend_Bound", "Backend_Bound": "Topdown_Backend_Bound",
            "Retiring": "Topdown_Retiring"}
def cross_checks(name):
    d, t = load(name)
    if t is None: return {}
    cons = d["run"]["workloads"][0]["counted"]["consistency"]
    got = {}
    for c in cons:
        if c["kind"] != "cross_check": continue
        node = c["rule"].split(" = ")[0]
        got[node] = c
        if xc_event.get(node) not in c["events"]:
            bad(f"{name}: the cross-check of {node} does not name {xc_event.get(node)}: {c['events']}")
        if c["tolerance"] != 0.02:
            bad(f"{name}: cross-check tolerance {c['tolerance']}, not the 2 points documented")
    if set(got) != set(xc_event):
        bad(f"{name}: cross-checks of {sorted(got)}, expected {sorted(xc_event)}")
    return got

p = clean("xc-clean")
got = cross_checks("xc-clean")
held = [n for n, c in got.items() if c["state"] == "held"]
if sorted(held) != sorted(xc_event):
    bad(f"xc-clean: cross-checks held only for {held}: {got}")
else:
    print(f"ok   xc-clean: cross-checks held: " + ", ".join(
        f"{n} {got[n]['lhs']:.4f} vs {got[n]['rhs']:.4f}" for n in sorted(got)))
got = cross_checks("xc-defect")
d, t = load("xc-defect")
if got and t is not None:
    fe = got.get("Frontend_Bound", {})
    # doubled: the event's share is twice PERF_METRICS' (within rounding)
    if fe.get("state") != "violated" or not (1.9 < fe["rhs"] / fe["lhs"] < 2.1):
        bad(f"xc-defect: Frontend_Bound cross-check not violated by a doubled event: {fe}")
    others = {n: c["state"] for n, c in got.items() if n != "Frontend_Bound"}
    if set(others.values()) != {"held"}:
        bad(f"xc-defect: other cross-checks {others}")
    # a violated cross-check is a failed check of the bring-up: exit status
    # 1, Frontend_Bound untrusted (verdict CROSS, naming the event and both
    # values) and off the bottleneck path, every other node trusted
    rc = int(open(f"{work}/xc-defect.rc").read())
    if rc != 1:
        bad(f"xc-defect: exit status {rc}, not 1, with a violated cross-check")
    u = untrusted(t)
    ufe = u.get("Frontend_Bound", {})
    if set(u) != {"Frontend_Bound"} or ufe.get("verdict") != "CROSS" or \
       ufe.get("event") != "Topdown_Frontend_Bound" or "cross-check: Frontend_Bound" not in ufe.get("check", ""):
        bad(f"xc-defect: untrusted {u}, expected Frontend_Bound alone (CROSS, Topdown_Frontend_Bound)")
    if "Frontend_Bound" in t["bottleneck_path"]:
        bad(f"xc-defect: the untrusted Frontend_Bound is on the path {t['bottleneck_path']}")
    for where, text in (("console", " ".join(open(f"{work}/xc-defect.out").read().split())),
                        ("report", " ".join(open(f"{work}/xc-defect.report").read().split()))):
        if "untrusted: Topdown_Frontend_Bound disagrees with PERF_METRICS (cross-check: Frontend_Bound" not in text:
            bad(f"xc-defect: the {where} does not mark Frontend_Bound untrusted by the cross-check")
    con = " ".join(open(f"{work}/xc-defect.out").read().split())
    if not ("finding: an event does not count as the formula assumes: Frontend_Bound = "
            "Arch_Frontend_Bound (cross-check: Topdown_Frontend_Bound / TOPDOWN.SLOTS)" in con):
        bad("xc-defect: the console does not show the violated cross-check naming the event")
    rep = open(f"{work}/xc-defect.report").read()
    if "violated: Frontend_Bound = Arch_Frontend_Bound (cross-check: Topdown_Frontend_Bound" not in rep:
        bad("xc-defect: the report does not show the violated cross-check")
    if not failed:
        print(f"ok   xc-defect: Frontend_Bound cross-check violated ({fe['lhs']:.4f} vs "
              f"{fe['rhs']:.4f}), naming Topdown_Frontend_Bound in console, results, report; "
              f"Frontend_Bound untrusted (CROSS), path {t['bottleneck_path']}, exit status {rc}")

p = clean("skl-clean")
# SKL: the metrics whose formula reads UOPS_ISSUED.ANY (the vendor file's
# "Events" of each metric), among the nodes of the tree baretop wrote.
if os.path.exists(vendor):
    ms = json.load(open(vendor))["Metrics"]
    d, t = load("skl-defect")
    if t is not None:
        reads = {m["MetricName"] for m in ms
                 if any(e["Name"] == "UOPS_ISSUED.ANY" for e in m.get("Events", []))}
        names = set(t["nodes"])
        exp = reads & names
        exp_tree = {n for n in exp if t["nodes"][n]["kind"] == "tree"}
        check("skl-defect", "UOPS_ISSUED.ANY", exp_tree, exp, 2, p)
else:
    print(f"skip skl-defect: {vendor} absent (../shared)")
sys.exit(1 if failed else 0)
PY
echo "step time: $(( $(date +%s) - start )) s"
exit $fail

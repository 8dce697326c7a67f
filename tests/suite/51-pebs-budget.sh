#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~6s
# alone: its --budget checks compare wall time with the budget, which other steps running beside it would stretch
# Timed-PEBS samplings (one run of the workload each, the retire latencies
# of the LNL P-core formulas) are planned with the counter groups against
# --budget and split under --max-window-ms like the counting runs.
#
# --budget: a hosted run of multiply1 on the simulated Lunar Lake P-core to
# level 6 (--reps 1 --warmups 0: 17 counter groups of one run, then up to 8
# samplings). The budget is real time (the platform's TSC, also under
# --sim: the body really runs here), so the matrix order is searched for
# one where the groups fit in a 1 s budget and the samplings do not: after
# each attempt the order is scaled by the times the attempt itself
# measured, then bisected (at most 7 attempts of about 1 s for each of the
# two searches below; on a machine too loaded to hit that window, an
# attempt that left groups out too).
# Every attempt, whatever it left out, must keep the budget: its
# measurement (counted.timed_pebs.measure_end_s, the last run or sampling)
# ends within it, and the boot's elapsed_s, which also has the evaluation,
# console report and results of the workload (not planned), passes it by
# less than 0.1 s; the process's own wall time is within it plus start-up;
# and it records what it left out. The attempt that left samplings out
# (and no group) must show:
#   - the inputs left out not measured: retire_latency not_sampled
#     "budget", no samples, listed in partial.retire_latencies_not_measured;
#     never also measured. A latency not measured takes its published mean
#     by default, whatever kept it from being measured (as perf and toplev
#     do): each takes the MEAN of pmu-tools' lnl-retlat.json (typed below
#     from the file at commit 2568760f), source "published"; the nodes
#     Intel's formulas compute from it with no fallback are valued with
#     latency "published", and no node is listed not measured for want of
#     a latency;
#   - the boot record "N of M timed-PEBS samplings not run", the console's
#     PARTIAL (budget) line naming the latencies and the published means in
#     their place, and each latency "published (timed-PEBS sampling not
#     run: budget)";
#   - the ratios, measured in that run: wall time / budget, and the
#     samplings' wall time against the groups-only time.
# Then --no-default-retire-latency (no published mean: the formulas' own
# fallback), searched the same way from that order until an attempt leaves
# out a sampling that such a node needs: the inputs left out "not measured
# (budget)", source not_measured, no value; the nodes that need one of them
# with no fallback in Intel's formula
# (../shared/reference/intel/LNL/metrics/lunarlake_metrics_lioncove_core.json,
# read here as 39-retire-latency.sh reads it) not measured, value null,
# named in partial.nodes_not_measured (at least one), no node of that list
# valued, and the console's PARTIAL line naming them without published
# means.
# --max-window-ms: with a cap of 0.1 ms (simulated time) the samplings are
# split into as many windows as the counting runs, and every measured
# latency (mean, samples) equals that of the same run whole.
set -uo pipefail
ref=${BT_SHARED_REFERENCE:-../shared/reference}
lnl=$ref/intel/LNL/metrics/lunarlake_metrics_lioncove_core.json
[ -x build/baretop-host ] || make -s -j2 host >/dev/null
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

BIN=$bin WORK=$work LNL=$lnl python3 - <<'PY' || fail=1
import json, os, re, subprocess, sys, time
bin, work, lnl = os.environ["BIN"], os.environ["WORK"], os.environ["LNL"]
budget = 1
err = []
# pmu-tools at commit 2568760f, lnl-retlat.json: each event's "MEAN", toplev's
# default retire latency (the published means a run uses where it measured none)
MEAN = {
    "BR_MISP_RETIRED.COND_NTAKEN_COST": 6.17, "BR_MISP_RETIRED.COND_TAKEN_BWD_COST": 3.19,
    "BR_MISP_RETIRED.COND_TAKEN_FWD_COST": 18.34, "BR_MISP_RETIRED.INDIRECT_CALL_COST": 61.89,
    "BR_MISP_RETIRED.INDIRECT_COST": 14.52, "BR_MISP_RETIRED.RET_COST": 40.3,
    "FRONTEND_RETIRED.ANY_DSB_MISS": 5.64, "FRONTEND_RETIRED.ITLB_MISS": 0.0,
    "FRONTEND_RETIRED.L1I_MISS": 0.0, "FRONTEND_RETIRED.L2_MISS": 0.0,
    "FRONTEND_RETIRED.MS_FLOWS": 0.0, "FRONTEND_RETIRED.STLB_MISS": 0.0,
    "FRONTEND_RETIRED.UNKNOWN_BRANCH": 6.6, "MEM_INST_RETIRED.LOCK_LOADS": 23.74,
    "MEM_INST_RETIRED.SPLIT_LOADS": 4.71, "MEM_INST_RETIRED.SPLIT_STORES": 12.95,
    "MEM_INST_RETIRED.STLB_HIT_LOADS": 1.75, "MEM_INST_RETIRED.STLB_HIT_STORES": 8.82,
    "MEM_INST_RETIRED.STLB_MISS_LOADS": 96.54, "MEM_INST_RETIRED.STLB_MISS_STORES": 36.96,
    "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD": 16.92, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM": 82.65,
    "MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS": 14.69, "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD": 25.64,
    "MEM_LOAD_RETIRED.L2_HIT": 3.12, "MEM_LOAD_RETIRED.L3_HIT": 7.77,
    "MEM_LOAD_RETIRED.L1_HIT_L1": 2.53,
}

def run(n, k, extra):
    d = f"{work}/b{k}"
    t0 = time.monotonic()
    p = subprocess.run([bin, "run", "--sim=lnl-p", "-w", f"multiply1:n={n}", "--level", "6",
                        "--reps", "1", "--warmups", "0", "--budget", str(budget),
                        "--results-dir", d] + extra, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        print(f"FAIL n={n}: status {p.returncode}: {p.stdout[-400:]} {p.stderr[-400:]}")
        sys.exit(1)
    res = json.load(open(f"{d}/000001.json"))
    return res, p.stdout, wall

# Intel's formulas: which nodes multiply by X:R with no "if ( x > = 0 )"
# fallback (the same reading as 39-retire-latency.sh's).
need = {}
if os.path.exists(lnl):
    metrics = json.load(open(lnl))
    metrics = metrics["Metrics"] if isinstance(metrics, dict) else metrics
    for m in metrics:
        if m.get("Category") != "TMA" or not str(m.get("Level", "")).isdigit() or int(m["Level"]) > 6:
            continue
        rl = [e["Alias"] for e in m.get("Events", []) if e["Name"].endswith(":retire_latency")]
        tested = set(re.findall(r"if \( (\w+) > = 0 \)", m["Formula"]))
        lack = {e["Name"].split(":")[0] for e in m["Events"] if e["Alias"] in rl and e["Alias"] not in tested}
        if lack:
            need[m["MetricName"]] = lack
else:
    print(f"#    {lnl} absent: the nodes are checked against the results' own lists only")

def needing(c, left):
    """The tree nodes Intel's formulas compute from a left-out latency
    with no fallback, of an event that occurred (a count of 0 times any
    latency is 0: nothing rests on it)."""
    counts = {k: v["median"] for k, v in c["events"].items()}
    out = {}
    for name, lack in need.items():
        nd = c["tree"]["nodes"].get(name)
        if not nd or nd.get("kind") != "tree" or nd.get("state") == "missing":
            continue
        occurred = {e for e in lack if counts.get(e, 0) > 0} & left
        if occurred:
            out[name] = sorted(occurred)
    return out

def check_always(res, wall, n):
    """What every attempt must keep, whatever it left out."""
    b = res["result"]["boot"]
    c = res["run"]["workloads"][0]["counted"]
    tp, part = c["timed_pebs"], c["partial"]
    e = []
    # the plan keeps the measurement (the last counting run or sampling)
    # within the budget; the evaluation, console report and results of the
    # workload after it are not planned (a few ms hosted): 0.1 s for them
    end = tp.get("measure_end_s")
    if b["budget_s"] != budget or end is None or not end <= budget:
        e.append(f"n={n}: measurement ended at {end} s, over the budget of {budget} s")
    if not b["elapsed_s"] <= budget + 0.1:
        e.append(f"n={n}: elapsed {b['elapsed_s']:.3f} s, over the budget of {budget} s "
                 "by more than the report and results take")
    # the process: exec, the budget, then the results written (not in the budget)
    if wall > budget + 1.0:
        e.append(f"n={n}: process wall time {wall:.2f} s")
    left = [k for k, v in c["retire_latency"].items() if v.get("not_sampled") == "budget"]
    if len(left) != tp["samplings_skipped_budget"]:
        e.append(f"n={n}: {len(left)} inputs not_sampled vs {tp['samplings_skipped_budget']} skipped")
    if bool(tp["samplings_skipped_budget"] or c["steps"][0]["groups_skipped"]) != bool(part):
        e.append(f"n={n}: partial {part} with {tp} / {c['steps'][0]['groups_skipped']} groups left out")
    if part:
        got = [x[:-2] for x in part["retire_latencies_not_measured"].split(", ") if x]
        if part["pebs_samplings_skipped"] != len(left) or sorted(got) != sorted(left):
            e.append(f"n={n}: partial lists {got}, inputs not sampled {left}")
        if not b["budget_ended"] or len(b["steps_partial"]) != 1:
            e.append(f"n={n}: boot {b}")
    return e

def search(n, k, extra, want_nodes):
    """Orders from n until an attempt fits every group and leaves samplings
    out (with want_nodes, one of them needed by a node with no fallback):
    (found or None, k, the first attempt that left samplings out)."""
    fallback, lo, hi, k0 = None, None, None, k
    while k < k0 + 7:
        k += 1
        res, out, wall = run(n, k, extra)
        err.extend(check_always(res, wall, n))
        c = res["run"]["workloads"][0]["counted"]
        s, tp = c["steps"][0], c["timed_pebs"]
        el = res["result"]["boot"]["elapsed_s"]
        left = {x for x, v in c["retire_latency"].items() if v.get("not_sampled") == "budget"}
        print(f"#    n={n} {' '.join(extra)}: groups {s['groups'] - s['groups_skipped']}/{s['groups']} "
              f"in {tp['groups_wall_s']:.3f} s, samplings {tp['samplings']} run, "
              f"{tp['samplings_skipped_budget']} left out, {tp['wall_s']:.3f} s; measurement ended at "
              f"{tp['measure_end_s']:.3f} s, elapsed {el:.3f} s of {budget}")
        nodes_ok = not want_nodes or not need or needing(c, left)
        if s["groups_skipped"] == 0 and left and nodes_ok:
            return (n, res, out, wall, k), k, fallback
        if left and not fallback and nodes_ok:
            fallback = (n, res, out, wall, k)
        # too few samplings left out (none, or none a node needs): a larger
        # order; groups left out: a smaller one
        if s["groups_skipped"]:
            hi = n if hi is None else min(hi, n)
        else:
            lo = n if lo is None else max(lo, n)
        if lo and hi:
            n = int((lo * hi) ** 0.5)  # between an order that fit and one that did not
            if n in (lo, hi):
                break
            continue
        # one side only: scale the order by this attempt's own times, aiming
        # at the groups plus a third of 8 samplings ending at the budget (a
        # run costs ~ n^3); past it when the samplings left out were not
        # enough
        per = tp["wall_s"] / tp["samplings"] if tp["samplings"] else None
        groups_full = tp["groups_wall_s"] * s["groups"] / max(1, s["groups"] - s["groups_skipped"])
        if per is None:
            per = groups_full / s["groups"]
        overhead = max(0.05, el - tp["groups_wall_s"] - tp["wall_s"])
        want = max(0.2, budget - overhead)
        f = (want / (groups_full + 8 / 3 * per)) ** (1 / 3)
        if left and not nodes_ok:
            f = max(f, 1.05)
        n = int(n * min(1.6, max(0.6, f)))
    return None, k, fallback

def pick(found, fallback, k, what):
    if found:
        return found
    if fallback:
        # a loaded machine: no order let every group fit and left samplings
        # out; an attempt that left out groups and samplings shows the same
        # records (the groups' side is 24-host-cli.sh's)
        print(f"#    {what}: no order with every group and not every sampling in {k} attempts: "
              f"checking n={fallback[0]}, which left groups out too")
        return fallback
    err.append(f"{what}: no attempt left a sampling out in {k} attempts")
    return None

def console_partial(out, left, published):
    """The console's PARTIAL (budget) line: the samplings, the latencies,
    the published means in their place (or no such clause), the nodes."""
    text = re.sub(r"\s+", " ", out)
    m = re.search(r"(\d+) timed-PEBS sampling\(s\) not run, as the time budget \(--budget\) could "
                  r"not hold them .*?retire latencies not measured \(budget\): ([^;]*); "
                  r"(the published mean in place of (\d+) of them; )?nodes not measured \(budget\): "
                  r"(none|[A-Z][^ ]*)", text)
    if not m or int(m.group(1)) != len(left) or \
            sorted(x[:-2] for x in m.group(2).split(", ")) != sorted(left) or \
            (m.group(4) and int(m.group(4))) != (len(left) if published else None):
        return [f"console: no PARTIAL (budget) line naming the {len(left)} latencies left out"
                + (" and the published means in their place" if published else
                   " without published means")], None
    return [], (text, m.group(5))

def boot_line(res, left, cut_groups):
    b = res["result"]["boot"]
    tp = res["run"]["workloads"][0]["counted"]["timed_pebs"]
    grp = f"{cut_groups} of [0-9]+ counter groups not run, " if cut_groups else ""
    bl = (f"multiply1 on CPU [0-9]+: {grp}{len(left)} of {tp['samplings'] + len(left)} "
          f"timed-PEBS samplings not run")
    return [] if re.fullmatch(bl, b["steps_partial"][0]) else [f"boot steps_partial {b['steps_partial']}"]

# A: the default. A latency the budget left out is not measured, so the
# published mean stands in for it as for any latency not measured.
found, k, fallback = search(236, 0, [], False)
found = pick(found, fallback, k, "published means")
summary = []
if found:
    n, res, out, wall, ka = found
    c = res["run"]["workloads"][0]["counted"]
    tp, part, nodes = c["timed_pebs"], c["partial"], c["tree"]["nodes"]
    cut_groups = c["steps"][0]["groups_skipped"]
    left = {x for x, v in c["retire_latency"].items() if v.get("not_sampled") == "budget"}
    for x in sorted(left):
        v = c["retire_latency"][x]
        if v["source"] != "published" or v["mean"] != MEAN.get(x) or v["samples"] is not None:
            err.append(f"{x}:R left out: want pmu-tools' MEAN {MEAN.get(x)} (published), got {v}")
    listed = [x for x in part["nodes_not_measured"].split(", ") if x and x != "..."]
    # only a node whose counter group the budget cut is "missing" (as in
    # 24-host-cli.sh); none lacks a latency
    for x in listed:
        if nodes.get(x, {}).get("state") != "missing" or not cut_groups:
            err.append(f"{x} listed not measured (budget) with published means: {nodes.get(x)}")
    lacking = [x for x, nd in nodes.items() if nd.get("reason") == "no retire latency"]
    if lacking:
        err.append(f"nodes without a retire latency beside published means: {lacking}")
    nodes_pub = needing(c, left)
    for name, lat in nodes_pub.items():
        nd = nodes[name]
        if nd.get("value") is None or nd.get("state") != "ok" or nd.get("latency") != "published":
            err.append(f"{name} needs {lat} (left out, published mean) but {nd}")
    e, got = console_partial(out, left, True)
    err += e
    if got:
        text, nodes_said = got
        if not cut_groups and nodes_said != "none":
            err.append(f"console: nodes not measured (budget): {nodes_said}, none lack a latency")
        for x in sorted(left):
            if not re.search(re.escape(x) + r":R %.2f published \(timed-PEBS sampling not run: budget\)"
                             % MEAN[x], text):
                err.append(f"console: {x}:R not '{MEAN[x]:.2f} published (timed-PEBS sampling not run: budget)'")
    err += boot_line(res, left, cut_groups)
    if not err:
        b = res["result"]["boot"]
        g, p_, el = tp["groups_wall_s"], tp["wall_s"], b["elapsed_s"]
        # the samplings left out at the mean wall time of those run: what
        # running them all, as before the budget planned them, would take
        more = len(left) * p_ / tp["samplings"] if tp["samplings"] else float("nan")
        print(f"ok   --budget {budget} --sim=lnl-p --level 6 (multiply1 n={n}, attempt {ka}): measurement "
              f"ended at {tp['measure_end_s']:.3f} s = {tp['measure_end_s'] / budget:.2f} of the budget, "
              f"elapsed with the report {el:.3f} s = {el / budget:.2f} (process {wall:.2f} s); groups-only "
              f"{g:.3f} s, {tp['samplings']} samplings {p_:.3f} s more ((groups + samplings) / groups "
              f"= {(g + p_) / g:.2f}); {len(left)} left out (~{more:.3f} s: all of them would "
              f"end at ~{(el + more) / budget:.2f} of the budget)")
        print(f"ok   {len(left)} left out, each with pmu-tools' published MEAN (source published, console "
              f"'published (timed-PEBS sampling not run: budget)', PARTIAL line 'the published mean in "
              f"place of {len(left)}'): {', '.join(sorted(x + ':R' for x in left))}; "
              f"{len(nodes_pub)} nodes Intel computes from them valued, latency published; none not measured")

# B: --no-default-retire-latency, from the order A found: no published
# mean, so the formulas' own fallback, and a node whose formula has none is
# not measured (budget); searched until one such node needs a latency left out.
found, k, fallback = search(found[0] if found else 236, k, ["--no-default-retire-latency"], True)
found = pick(found, fallback, k, "--no-default-retire-latency")
if found:
    n, res, out, wall, kb = found
    c = res["run"]["workloads"][0]["counted"]
    part, nodes = c["partial"], c["tree"]["nodes"]
    cut_groups = c["steps"][0]["groups_skipped"]
    left = {x for x, v in c["retire_latency"].items() if v.get("not_sampled") == "budget"}
    for x in sorted(left):
        v = c["retire_latency"][x]
        if v["source"] != "not_measured" or v["mean"] is not None or v["samples"] is not None:
            err.append(f"--no-default-retire-latency: {x}:R left out but {v}")
    listed = [x for x in part["nodes_not_measured"].split(", ") if x and x != "..."]
    # a node whose counter group the budget cut is "missing" (as in
    # 24-host-cli.sh); one that lacks only a left-out latency "not_measured"
    ok_states = {"not_measured", "missing"} if cut_groups else {"not_measured"}
    for x in listed:
        if nodes.get(x, {}).get("value") is not None or nodes.get(x, {}).get("state") not in ok_states:
            err.append(f"--no-default-retire-latency: {x} listed not measured (budget) but {nodes.get(x)}")
    expect = needing(c, left)
    for name, lat in expect.items():
        nd = nodes[name]
        if nd.get("state") != "not_measured" or nd.get("value") is not None:
            err.append(f"--no-default-retire-latency: {name} needs {lat} (left out) but {nd}")
    if need and not expect:
        err.append("--no-default-retire-latency: no node needing a left-out latency to check")
    if not part["nodes_not_measured"].endswith("...") and not set(expect) <= set(listed):
        err.append(f"nodes needing a left-out latency not listed: {sorted(set(expect) - set(listed))}")
    e, got = console_partial(out, left, False)
    err += e
    if got:
        text, nodes_said = got
        if expect and nodes_said == "none":
            err.append("console: --no-default-retire-latency: nodes not measured (budget): none")
        for x in sorted(left):
            if not re.search(re.escape(x) + r":R not measured \(budget\)", text):
                err.append(f"console: {x}:R not 'not measured (budget)'")
    err += boot_line(res, left, cut_groups)
    if not err:
        print(f"ok   --no-default-retire-latency (n={n}, attempt {kb}): {len(left)} left out not measured "
              f"(budget): {', '.join(sorted(x + ':R' for x in left))}; {len(listed)} nodes not measured "
              f"(budget){', %d of them from Intel: %s' % (len(expect), ', '.join(sorted(expect))) if need else ''}")
for e in err:
    print("FAIL " + e)
sys.exit(1 if err else 0)
PY

# every attempt's results file against the schema
if python3 -c 'import jsonschema' 2>/dev/null; then
  python3 tests/suite/lib/check-results-schema.py --files-only report/results.schema.json \
    report/results.h "$work"/b*/000001.json >"$work/schema.log" 2>&1 &&
    echo "ok   $(grep -c '^ok .*valid' "$work/schema.log") results files valid against the schema" ||
    { echo "FAIL schema:"; grep -v '^ok' "$work/schema.log"; fail=1; }
fi
# --max-window-ms: samplings split like the counting runs, latencies equal
for cap in whole:1000 split:0.1; do
  "$bin" run --sim=lnl-p --quick -w multiply1:n=64 --level 6 --reps 1 --max-window-ms "${cap#*:}" \
    --results-dir "$work/cap-${cap%%:*}" >"$work/cap-${cap%%:*}.log" 2>&1 ||
    { echo "FAIL --max-window-ms ${cap#*:}: status $?"; fail=1; }
done
python3 - "$work/cap-whole/000001.json" "$work/cap-split/000001.json" <<'PY' || fail=1
import json, sys
w, s = (json.load(open(f))["run"]["workloads"][0]["counted"] for f in sys.argv[1:3])
def rl(c):
    return {k: (v["mean"], v["samples"]) for k, v in c["retire_latency"].items() if v["source"] == "measured"}
tw, ts = w["timed_pebs"], s["timed_pebs"]
cap = 0.1e-3 * s["tsc_hz"]
st = s["steps"][0]
ok = (tw["windows_per_sampling"] == 1 and ts["windows_per_sampling"] >= 2
      and ts["windows_per_sampling"] == st["windows_per_run"]
      and st["tsc_median"] / st["windows_per_run"] < cap
      and ts["samplings"] == tw["samplings"] >= 1 and rl(w) and rl(w) == rl(s))
print(("ok   " if ok else "FAIL ") + f"--max-window-ms 0.1: {ts['samplings']} samplings in "
      f"{ts['windows_per_sampling']} windows each (the counting runs': {st['windows_per_run']}, "
      f"each {st['tsc_median'] / st['windows_per_run'] / s['tsc_hz'] * 1e3:.3f} ms simulated), "
      f"{len(rl(s))} latencies equal to the whole runs'" + ("" if ok else f": {tw} {ts} {rl(w)} {rl(s)}"))
sys.exit(0 if ok else 1)
PY
exit $fail

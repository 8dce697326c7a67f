#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~13s
# PMU conformance against the SIMULATED PMU:
# tests/unit/validate/test-conformance on every preset with no defect (every
# check PASS or SKIP, SKIP only where the preset lacks the feature, the
# register file restored) and with each injectable defect (the FAIL set
# equals exactly the checks that defect must break, on every preset where it
# applies), counters left by firmware reported and restored, a faulting MSR
# named; then the defect x preset table. Also `--sim-defect=help` and a
# malformed --sim-defect refused with its message; and the counter health
# check's defect x preset matrix in Top-Down runs (below).
set -uo pipefail
make -s -j"$(nproc)" host tests >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
start=$(date +%s%N)
out=$(./build/host/tests/test-conformance 2>&1)
rc=$?
echo "$out" | grep -E '^(ok|not ok)' | sed 's/^/  /'
if [ $rc -ne 0 ]; then
    echo "$out" | grep -E '^#   tests/' | head -20
    echo "FAIL test-conformance (status $rc)"
    fail=1
fi
echo "$out" | grep -q '0 verdicts differing from the expected set' ||
    { echo "FAIL the defect matrix differs from the expected FAIL sets"; fail=1; }
# The defects at the register level, and their name parser.
if d=$(./build/host/tests/test-sim-defect 2>&1); then
    echo "ok: test-sim-defect: $(echo "$d" | grep -c '^ok') register-level defect and parser tests"
else
    echo "$d" | grep -E '^(not ok|#   tests/)'; echo "FAIL test-sim-defect"; fail=1
fi
echo "--- SIMULATED PMU: defect x preset (PASS/FAIL per check) ---"
echo "$out" | sed -n '/^# SIMULATED PMU: defect x preset/,$p' | grep '^#' | sed 's/^# \{0,1\}//'

help=$(./build/baretop-host run --sim-defect=help 2>&1)
# NAME, NAME[:PARAM] (optional) or NAME:PARAM (required), then ": "
n=$(echo "$help" | grep -c '^[a-z0-9-]*\(\[\{0,1\}:[A-Z/]*\]\{0,1\}\)\{0,1\}: ')
if [ "$n" -ne 12 ]; then
    echo "FAIL --sim-defect=help lists $n defects, expected 12"; fail=1
else
    echo "ok: --sim-defect=help lists $n defects"
fi
bad=$(./build/baretop-host run --sim=skl --sim-defect=stuck-counter:99 --no-results 2>&1)
brc=$?
if [ $brc -eq 0 ] || ! echo "$bad" | grep -q "expected stuck-counter\[:K\]"; then
    echo "FAIL a malformed --sim-defect was not refused with its message (status $brc): $bad"
    fail=1
else
    echo "ok: --sim-defect=stuck-counter:99 refused (status $brc): $(echo "$bad" | head -1)"
fi
# The whole --validate pipeline (conformance + the built-in event checks) on
# the simulated PMU of three PMU families, with each defect injected: exactly
# the checks the defect breaks FAIL, and the run exits 1; a defect the part
# cannot have (no fixed counters on AMD, no PERF_METRICS on SKL, a counter
# beyond the PMU's) is a usage error, exit 2, saying it cannot apply (a run
# that tests nothing must not look like a pass); one on an encoding the
# vendor does not use fails nothing and exits 0. The expected sets follow
# from where each defect acts (arch/sim/README.md) and which checks read that
# register or encoding: conformance ids from the table there, event checks of
# the encoding it alters (double-count, umask-ignored: every C4H umask other
# than 00H whose count differs from all branches by more than the tolerance),
# of the fixed counter it kills (fixed-dead:1 on SKL: CPU_CLK_UNHALTED.THREAD;
# on ICL: TOPDOWN.SLOTS = width x fixed-1 cycles), or read through RDPMC's
# fixed-counter index (rdpmc-fixed-gp: on ICL the slots then fall below the
# retired uops), and the model's uop events, whose bounds have a lower limit
# (retired uops >= instructions - fused branches, issued = retired uops in
# one window): a stuck counter 1 under the issued uops, UOPS_ISSUED.ANY
# counted twice (double-count:0x0E/0x01) or the retired uops read as umask 0
# (umask-ignored:0xC2, a dead event) each FAIL.
python3 - "$(pwd)/build/baretop-host" <<'PY' || fail=1
import subprocess, sys, tempfile
bin = sys.argv[1]
E = "event:cpu/event="
want = {
 ("skl", "stuck-counter:1"): "conf:gp-agree conf:width-wrap event:UOPS_ISSUED.ANY@loop-dec-jnz#2",
 ("icl", "stuck-counter:1"): "conf:gp-agree conf:width-wrap event:UOPS_ISSUED.ANY@loop-dec-jnz#2",
 ("skl", "double-count:0x0E/0x01"): "event:UOPS_ISSUED.ANY@loop-dec-jnz#2",
 ("skl", "umask-ignored:0xC2"): "event:UOPS_RETIRED.RETIRE_SLOTS@loop-dec-jnz event:UOPS_ISSUED.ANY@loop-dec-jnz#2",
 ("zen4", "stuck-counter:1"): "conf:gp-agree conf:amd-48bit",
 ("skl", "double-count:0xC4/0x01"): E + "0xc4,umask=0x01/@loop-dec-jnz",
 ("icl", "double-count:0xC4/0x01"): E + "0xc4,umask=0x01/@loop-dec-jnz",
 ("zen4", "double-count:0xC4/0x01"): "",
 ("zen4", "double-count:0xC2/0x00"): E + "0xc2,umask=0x00/@loop-dec-jnz " + E + "0xc2,umask=0x00/@call-ret",
 ("skl", "double-count:0xC0/0x00"): "conf:fixed0-vs-gp-inst " + E + "0xc0,umask=0x00/@loop-dec-jnz",
 ("icl", "double-count:0xC0/0x00"): "conf:fixed0-vs-gp-inst " + E + "0xc0,umask=0x00/@loop-dec-jnz",
 ("zen4", "double-count:0xC0/0x00"): E + "0xc0,umask=0x00/@loop-dec-jnz",
 ("skl", "narrow-counter:0"): "conf:width-wrap conf:pmc-32bit-write conf:full-width-write",
 ("icl", "narrow-counter:0"): "conf:width-wrap conf:pmc-32bit-write conf:full-width-write",
 ("zen4", "narrow-counter:0"): "conf:amd-48bit",
 ("skl", "fixed-dead:1"): "conf:fixed1-vs-gp-cycles conf:width-wrap event:CPU_CLK_UNHALTED.THREAD@loop-dec-jnz",
 ("icl", "fixed-dead:1"): "conf:fixed1-vs-gp-cycles conf:width-wrap event:TOPDOWN.SLOTS@loop-dec-jnz",
 ("zen4", "fixed-dead:1"): "USAGE",
 ("skl", "stuck-counter:7"): "USAGE",
 ("zen4", "stuck-counter:6"): "USAGE",
 ("skl", "fixed-dead:3"): "USAGE",
 ("skl", "fixed-dead:2"): "conf:fixed2-vs-tsc conf:width-wrap",
 ("icl", "fixed-dead:2"): "conf:fixed2-vs-tsc conf:width-wrap",
 ("skl", "no-overflow-bit:0"): "conf:overflow-status",
 ("icl", "no-overflow-bit:0"): "conf:overflow-status",
 ("zen4", "no-overflow-bit:0"): "conf:overflow-status",
 ("skl", "umask-ignored:0xC4"): E + "0xc4,umask=0x10/@loop-dec-jnz " + E + "0xc4,umask=0x02/@call-ret " + E + "0xc4,umask=0x08/@call-ret",
 ("icl", "umask-ignored:0xC4"): E + "0xc4,umask=0x01/@loop-dec-jnz " + E + "0xc4,umask=0x10/@loop-dec-jnz " + E + "0xc4,umask=0x02/@call-ret " + E + "0xc4,umask=0x08/@call-ret",
 ("zen4", "umask-ignored:0xC4"): "",
 ("skl", "fw-truncates"): "conf:full-width-write",
 ("icl", "fw-truncates"): "conf:full-width-write",
 ("skl", "pm-sticky"): "USAGE",
 ("icl", "pm-sticky"): "conf:perf-metrics-sum conf:perf-metrics-reset",
 ("icl", "amd-alias-split"): "USAGE",
 ("zen4", "amd-alias-split"): "conf:amd-legacy-vs-ext",
 ("skl", "global-ignored"): "conf:global-ctrl",
 ("icl", "global-ignored"): "conf:global-ctrl",
 ("zen4", "global-ignored"): "conf:perfmon-v2-global",
 ("skl", "rdpmc-fixed-gp"): "conf:rdpmc-fixed " + E + "0xc0,umask=0x00,fixed=0/@loop-dec-jnz event:CPU_CLK_UNHALTED.THREAD@loop-dec-jnz event:INST_RETIRED.ANY@loop-dec-jnz",
 ("icl", "rdpmc-fixed-gp"): "conf:rdpmc-fixed " + E + "0xc0,umask=0x00,fixed=0/@loop-dec-jnz event:TOPDOWN.SLOTS@loop-dec-jnz#2",
 ("zen4", "rdpmc-fixed-gp"): "USAGE",
}
for p in ("skl", "icl", "zen4"):
    want[(p, "")] = ""
bad = 0
rows = {}
with tempfile.TemporaryDirectory() as tmp:
    for (preset, defect), exp in sorted(want.items()):
        args = [bin, "validate", f"--sim={preset}", "-q", "--results-dir", tmp]
        if defect:
            args.append(f"--sim-defect={defect}")
        r = subprocess.run(args, capture_output=True, text=True)
        got = {l.split()[1] for l in r.stdout.splitlines() if l.startswith("  FAIL")}
        if exp == "USAGE":
            ok = r.returncode == 2 and "cannot apply" in r.stderr and not got
            rows.setdefault(defect, {})[preset] = "use" if ok else "X"
            if not ok:
                bad = 1
                print(f"FAIL validate --sim={preset} --sim-defect={defect}: status {r.returncode} "
                      f"(want 2, 'cannot apply'): {r.stderr.strip()[:200]}")
            continue
        exp_set = set(exp.split())
        rc_want = 1 if exp_set else 0
        ok = got == exp_set and r.returncode == rc_want
        rows.setdefault(defect or "(none)", {})[preset] = len(got) if ok else "X"
        if not ok:
            bad = 1
            print(f"FAIL validate --sim={preset} --sim-defect={defect}: status {r.returncode} (want {rc_want}); "
                  f"unexpected FAIL {sorted(got - exp_set)}; missing FAIL {sorted(exp_set - got)}")
print("--- SIMULATED PMU: --validate (conformance + event checks), FAILs per defect x preset ---")
print(f"{'defect':28} {'skl':>4} {'icl':>4} {'zen4':>4}")
for dfc, v in rows.items():
    print(f"{dfc:28} " + " ".join(f"{str(v.get(p, '-')):>4}" for p in ("skl", "icl", "zen4")))
print(("ok" if not bad else "FAIL") + f": --validate FAIL sets equal the expected ones for {len(want)} preset x defect cases")
sys.exit(bad)
PY
# The counter health check before every counted run (pmu/counter-health.h,
# validate/health.h), in Top-Down runs: every defect of the simulated PMU
# (each kind, with a parameter that applies to the vendor: AMD has no 0xC4
# umasks, its Top-Down events use 0x1A0's) x skl, ICX and spr (PERF_METRICS)
# and zen4 must end in a health FAIL, a violated consistency rule, or, for a
# defect the tree cannot show (a register rule the run never exercises), a
# FAIL of `validate` with the same defect; one that cannot apply to the part
# is a usage error (exit 2, "cannot apply") in both. A stuck general counter
# must leave the tree as without the defect: counter 1 named, left out of
# the plan (results: counter_health left_out_of_plan [1]) and said in the
# tree's input line. A run with a violated rule untrusts the nodes whose
# formulas read what the rule names (none on the path) and exits 1. Known
# gaps are listed by name: the step fails when one is caught (update the
# list) or when any other case is not.
python3 - "$(pwd)/build/baretop-host" <<'PY' || fail=1
import json, glob, os, re, subprocess, sys, tempfile
bin = sys.argv[1]
presets = ("skl", "ICX", "spr", "zen4")
def kinds(p):
    amd = p == "zen4"
    return ["stuck-counter:1", "stuck-counter:0",
            "double-count:" + ("0xC2/0x00" if amd else "0xC4/0x01"), "double-count:0xC0/0x00",
            "narrow-counter:1", "fixed-dead:0", "fixed-dead:1", "fixed-dead:2", "fixed-dead:3",
            "no-overflow-bit:1",
            "umask-ignored:" + ("0x1A0" if amd else "0xC4"), "fw-truncates", "pm-sticky",
            "amd-alias-split", "global-ignored", "rdpmc-fixed-gp"]
# Not caught by anything: none. (zen4's 0x1A0 umasks read as 0 select no
# dispatch-slot class and count nothing: level 1 then sums far below 1,
# which the level-1 partition rule of the consistency check catches.)
gaps = set()
bad = 0
caught_by = {}
def td(tmp, p, defect, extra=()):
    d = tempfile.mkdtemp(dir=tmp)
    args = [bin, "run", f"--sim={p}", "--quick", "-w", "ptr-chase-dram", "--level", "3",
            "--results-dir", d, *extra]
    if defect:
        args.append(f"--sim-defect={defect}")
    r = subprocess.run(args, capture_output=True, text=True)
    res = None
    for f in glob.glob(d + "/*.json"):
        res = json.load(open(f))
    return r, res
def bottleneck(out):
    m = re.search(r"^bottleneck path: ([^\n]*)", out, re.M)
    return m.group(1).split(" -- ")[0] if m else None
with tempfile.TemporaryDirectory() as tmp:
    for p in presets:
        base, _ = td(tmp, p, "")
        if base.returncode != 0 or "health        PASS" not in base.stdout:
            print(f"FAIL {p}: the run without a defect: status {base.returncode}, no health PASS")
            bad = 1
        for defect in kinds(p):
            r, res = td(tmp, p, defect)
            out = r.stdout
            if r.returncode == 2:
                v = subprocess.run([bin, "validate", f"--sim={p}", "-q", "--no-results",
                                    f"--sim-defect={defect}"], capture_output=True, text=True)
                ok = "cannot apply" in r.stderr and v.returncode == 2 and "cannot apply" in v.stderr
                caught_by[(p, defect)] = "n/a (cannot apply: exit 2)" if ok else None
                if not ok:
                    bad = 1
                    print(f"FAIL {p} {defect}: exit 2 without 'cannot apply': {r.stderr.strip()[:160]}")
                continue
            how = []
            if re.search(r"^health        FAIL", out, re.M):
                how.append("health FAIL" + (" (not counted)" if r.returncode else ""))
            m = re.search(r"consistency: \d+ rules held, (\d+) violated", out)
            if m and int(m.group(1)):
                # the nodes reading what a violated rule names are untrusted,
                # off the path, and the run exits 1
                t = ((res or {}).get("run", {}).get("workloads") or [{}])[0].get("counted", {}).get("tree", {})
                u = {k for k, v in t.get("nodes", {}).items() if "untrusted" in v}
                on = u & set(t.get("bottleneck_path", []))
                how.append(f"consistency ({m.group(1)} violated; {len(u)} node(s) untrusted, exit {r.returncode})")
                if r.returncode != 1 or not u or on:
                    bad = 1
                    print(f"FAIL {p} {defect}: a violated rule, exit {r.returncode}, {len(u)} untrusted "
                          f"node(s), untrusted on the path: {sorted(on)}")
            if not how:
                v = subprocess.run([bin, "validate", f"--sim={p}", "-q", "--quick", "--no-results",
                                    f"--sim-defect={defect}"], capture_output=True, text=True)
                fails = [l.split()[1] for l in v.stdout.splitlines() if l.startswith("  FAIL")]
                if v.returncode == 1 and fails:
                    how.append("validate FAIL " + fails[0] + (f" +{len(fails) - 1}" if len(fails) > 1 else ""))
            caught_by[(p, defect)] = ", ".join(how) or None
            if (p, defect) in gaps:
                if how:
                    bad = 1
                    print(f"FAIL {p} {defect}: a known gap is now caught ({how}): update the list")
            elif not how:
                bad = 1
                print(f"FAIL {p} {defect}: no health FAIL, no violated rule, no validate FAIL")
            if defect == "stuck-counter:1":
                h = (res or {}).get("run", {}).get("counting", {}).get("counter_health", {})
                ok = (r.returncode == 0 and bottleneck(out) == bottleneck(base.stdout)
                      and h.get("verdict") == "FAIL" and h.get("left_out_of_plan") == [1]
                      and re.search(r"general counter 1 (of CPU \d+ )?left out \(counter health",
                                    re.sub(r"\s+", " ", out)))
                print(("ok" if ok else "FAIL") + f": {p} stuck-counter:1: counter 1 named and left "
                      f"out, bottleneck {bottleneck(out)!r} as without the defect")
                bad |= not ok
        # --no-health-check: not checked, said so (console and results).
        r, res = td(tmp, p, "", ["--no-health-check"])
        h = (res or {}).get("run", {}).get("counting", {}).get("counter_health", {})
        ok = r.returncode == 0 and "counters not checked: --no-health-check" in r.stdout and \
            h.get("verdict") == "NOT RUN"
        print(("ok" if ok else "FAIL") + f": {p} --no-health-check: not checked, results say NOT RUN")
        bad |= not ok
print("--- SIMULATED PMU, Top-Down runs (ptr-chase-dram --level 3): what caught each defect ---")
n_app = sum(1 for v in caught_by.values() if v and not v.startswith("n/a"))
for (p, d), v in caught_by.items():
    print(f"  {p:5} {d:24} {v or ('NOT CAUGHT (known gap)' if (p, d) in gaps else 'NOT CAUGHT')}")
n_gap = sum(1 for k, v in caught_by.items() if not v)
print(("ok" if not bad else "FAIL") + f": {len(caught_by)} defect x preset cases, {n_app} caught, "
      f"{sum(1 for v in caught_by.values() if v and v.startswith('n/a'))} cannot apply (exit 2), "
      f"{n_gap} known gap(s)")
sys.exit(bad)
PY
end=$(date +%s%N)
echo "step time: $(( (end - start) / 1000000 )) ms"
[ $fail -eq 0 ] && echo "PASS conformance" || echo "FAIL conformance"
exit $fail

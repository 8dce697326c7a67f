#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~17s
# No broken counter on the bottleneck path, and a path that stops where
# measurement stopped (SIMULATED PMU throughout):
#  - SPR, general counter 1 stuck (it counts MEMORY_ACTIVITY.STALLS_L2_MISS
#    as 0), --no-health-check, --level 3: L3_Bound = (STALLS_L2_MISS -
#    STALLS_L3_MISS) / CLK goes far below 0, a violated [0, 1] rule; every
#    node whose formula reads an event that share's numerator reads
#    (L2_Bound, L3_Bound) is untrusted (verdict RULE, the rule named), the
#    path goes through none of them, and the run exits 1. The same run
#    without the defect: exit 0, no node untrusted, L2_Bound small (the
#    defect is what made it 69 %).
#  - --level 3 (SKL multiply2) and the drill-down and --level runs of GNR
#    with --no-pebs: every path node was measured (not "not_measured") and
#    has a value; the console's CPI stack line has a number or "n/a (why)"
#    for each path node it names; the toplev CSV export has no row deeper
#    than the run measured, '<==' on the path's last node.
#  - replay untrusts as run does: the stuck run's counts (`counts`) replayed
#    give the same untrusted nodes with the same verdicts and the same path;
#  - SPR with RDPMC reading a general counter for the fixed ones
#    (--sim-defect=rdpmc-fixed-gp, --no-health-check): TOPDOWN.SLOTS reads
#    0 while the PERF_METRICS fields (shares of the slots, SDM 21.3.9.3)
#    are not; the slots rule is violated and every level-1 node is
#    untrusted, none on the path, in the run and in its replay; the same
#    counts with the cycles > 0 (the IPC rule then holds) too, where the
#    replay before it put Backend_Bound on the path;
#  - every output (console, results file, report text/HTML/CSV, toplev CSV,
#    perf JSON) of a few presets' runs is free of nan, inf, a negative zero
#    ("-0.00", "-0.0000", JSON -0).
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$(pwd)/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# NAME ARGS...: a run into $work/NAME (console NAME.txt, status NAME.rc)
run() {
  local name=$1; shift
  mkdir -p "$work/$name"
  "$bin" run "$@" --results-dir "$work/$name" >"$work/$name.txt" 2>&1
  echo $? >"$work/$name.rc"
}

run stuck --sim=spr --sim-defect stuck-counter:1 -w multiply1:n=64 --level 3 --no-health-check
run slots --sim=spr --sim-defect=rdpmc-fixed-gp -w multiply1:n=64 --no-health-check
run clean --sim=spr -w multiply1:n=64 --level 3 --no-health-check
run skl3 --sim=skl -w multiply2:n=64 --level 3
run gnr3 --sim=GNR -w multiply2:n=64 --level 3 --no-pebs
run gnrdd --sim=GNR -w ptr-chase-l3 -w multiply2:n=64 --no-pebs --quick
run lnl4 --sim=lnl-p -w ptr-chase-l3:steps=200000 --level 4
run adle --sim=adl-e --quick -w branch-mispredict -w multiply1 -w ptr-chase-l2
run zen4 --sim=zen4 --quick -w ptr-chase-l2 -w multiply1
run skldd --sim=skl --quick -w ptr-chase-dram -w branch-mispredict -w multiply2

python3 - "$work" <<'PY' || fail=1
import json, os, re, sys
work = sys.argv[1]
bad = 0
def check(ok, msg):
    global bad
    print(("ok   " if ok else "FAIL ") + msg)
    bad |= not ok
def load(name):
    d = os.path.join(work, name)
    f = sorted(x for x in os.listdir(d) if x.endswith(".json"))[-1]
    return json.load(open(os.path.join(d, f))), open(os.path.join(work, name + ".txt")).read(), \
        int(open(os.path.join(work, name + ".rc")).read())
def path_line(txt):
    m = re.search(r"^bottleneck path: (.*?)\n(?! )", txt, re.M | re.S)
    return " ".join(m.group(1).split()) if m else None

doc, txt, rc = load("stuck")
t = doc["run"]["workloads"][0]["counted"]["tree"]
n = t["nodes"]
cons = doc["run"]["workloads"][0]["counted"]["consistency"]
viol = [c for c in cons if c["state"] == "violated"]
unt = {k: v["untrusted"] for k, v in n.items() if "untrusted" in v}
check(rc == 1 and doc["result"]["exit_status"] == 1,
      f"SPR stuck counter 1, --no-health-check: exit status {rc} (results {doc['result']['exit_status']}), want 1")
check(n["L2_Bound"]["value"] > 0.5 and n["L3_Bound"]["value"] < -0.3,
      f"the defect shows: L2_Bound {n['L2_Bound']['value']:.4f}, L3_Bound {n['L3_Bound']['value']:.4f}")
check(any(c["rule"] == "0 <= L3_Bound <= 1" for c in viol), f"violated: {[c['rule'] for c in viol]}")
ok = all(x in unt and unt[x]["verdict"] == "RULE" and "0 <= L3_Bound <= 1" in unt[x]["check"]
         and unt[x]["event"].startswith("MEMORY_ACTIVITY.STALLS_L") for x in ("L2_Bound", "L3_Bound"))
check(ok, f"L2_Bound and L3_Bound untrusted naming the rule: "
          f"{ {k: (v['event'], v['verdict']) for k, v in unt.items() if n[k]['kind'] == 'tree'} }")
p = t["bottleneck_path"]
check(not set(p) & set(unt) and p[:2] == ["Backend_Bound", "Memory_Bound"],
      f"path {' > '.join(p)} (console: {path_line(txt)}): through no untrusted node")
check("untrusted: MEMORY_ACTIVITY.STALLS_L2_MISS is named by a violated consistency rule" in " ".join(txt.split())
      and "L2_Bound" not in (path_line(txt) or ""), "the console marks L2_Bound untrusted, off its path line")
cdoc, ctxt, crc = load("clean")
cn = cdoc["run"]["workloads"][0]["counted"]["tree"]["nodes"]
check(crc == 0 and not any("untrusted" in v for v in cn.values()) and cn["L2_Bound"]["value"] < 0.15,
      f"without the defect: exit {crc}, nothing untrusted, L2_Bound {cn['L2_Bound']['value']:.4f}, "
      f"path {path_line(ctxt)}")

# the path and the CPI stack stop where measurement stopped
for name in ("skl3", "gnr3", "gnrdd", "lnl4", "skldd", "stuck"):
    doc, txt, rc = load(name)
    errs = []
    for w in doc["run"]["workloads"]:
        t = w["counted"]["tree"]
        n = t["nodes"]
        for x in t["bottleneck_path"]:
            if n[x]["state"] != "ok" or n[x]["value"] is None:
                errs.append(f"{w['name']}: {x} {n[x]['state']} on the path")
            if "untrusted" in n[x]:
                errs.append(f"{w['name']}: {x} untrusted on the path")
    cpi = re.findall(r"CPI stack of the bottleneck\s+path:(.*?)\n\n", txt, re.S)
    for line in cpi:
        line = " ".join(line.split())
        if re.search(r"\bnan\b", line, re.I):
            errs.append(f"CPI stack {line}")
        for part in re.findall(r"(\w+) (n/a(?! \()|[-\d.]+)", line):
            if part[1] == "n/a":
                errs.append(f"CPI stack n/a without a reason: {line}")
    paths = [path_line(x) for x in re.findall(r"bottleneck path: .*?\n(?! )", txt, re.S)]
    check(not errs, f"{name}: every path node measured, valued and trusted; CPI stack numbers or "
                    f"'n/a (why)': {'; '.join(errs[:3]) or ' | '.join(p or '' for p in paths[:2])}")
# a path node whose parent's split is incomplete: n/a with the reason (GNR, no PEBS)
doc, txt, rc = load("gnrdd")
flat = " ".join(txt.split())
check("n/a (L3_Bound's stack is split among all its children or none" in flat,
      "GNR --no-pebs ptr-chase-l3: L3_Hit_Latency's CPI share is 'n/a (L3_Bound's stack is split ...)'")
PY

# replay untrusts as run does: the recordings of the stuck and slots runs,
# and the slots one with its cycles and instructions counted
for name in stuck slots; do
  "$bin" counts "$(ls "$work/$name"/*.json | tail -1)" --out-dir "$work/$name.cnt" >/dev/null &&
    "$bin" replay --json --out-dir "$work/$name.rep" --base "$work/$name.cnt" "$work/$name.cnt"/*.json \
      >/dev/null 2>&1 || { echo "FAIL replay $name"; fail=1; }
done
python3 - "$work" "$bin" <<'PY' || fail=1
import glob, json, os, subprocess, sys
work, binary = sys.argv[1:3]
bad = 0
def check(ok, msg):
    global bad
    print(("ok   " if ok else "FAIL ") + msg)
    bad |= not ok
def run_tree(name):
    d = os.path.join(work, name)
    doc = json.load(open(sorted(glob.glob(d + "/*.json"))[-1]))
    return doc["run"]["workloads"][0]["counted"]["tree"]
def replay_tree(name):
    return json.load(open(sorted(glob.glob(os.path.join(work, name + ".rep", "*.json")))[-1]))
def untrusted(t):
    return {k: (v["untrusted"]["event"], v["untrusted"]["verdict"]) for k, v in t["nodes"].items()
            if "untrusted" in v}
for name in ("stuck", "slots"):
    a, b = run_tree(name), replay_tree(name)
    ua, ub = untrusted(a), untrusted(b)
    check(ua and ua == ub and a["bottleneck_path"] == b["bottleneck_path"],
          f"{name}: replay untrusts as run does: {len(ub)} nodes ({len(ua)} in the run), path "
          f"{' > '.join(b['bottleneck_path']) or '(none)'} (run: {' > '.join(a['bottleneck_path']) or '(none)'})")
l1 = ("Frontend_Bound", "Bad_Speculation", "Backend_Bound", "Retiring")
for name, t in (("slots run", run_tree("slots")), ("slots replay", replay_tree("slots"))):
    u = untrusted(t)
    check(all(x in u and u[x][1] == "RULE" for x in l1) and not set(t["bottleneck_path"]) & set(l1),
          f"{name}: TOPDOWN.SLOTS 0: every level-1 node untrusted ({ {x: u.get(x, ('-',))[0] for x in l1} }), "
          f"path {t['bottleneck_path'] or '(none)'}")
# the same recording with its cycles and instructions counted: only the
# slots rule can tell
cnt = sorted(glob.glob(os.path.join(work, "slots.cnt", "*.json")))[-1]
c = json.load(open(cnt))
c["counts"]["CPU_CLK_UNHALTED.THREAD"] = 4 * 10 ** 7
c["counts"]["INST_RETIRED.ANY"] = 2 * 10 ** 7
json.dump(c, open(os.path.join(work, "slots-cyc.json"), "w"))
out = subprocess.run([binary, "replay", "--json",
                      os.path.join(work, "slots-cyc.json")], capture_output=True, text=True)
t = json.loads(out.stdout)
viol = [x["kind"] for x in t["consistency"] if x["state"] == "violated"]
u = untrusted(t)
check(c["counts"]["TOPDOWN.SLOTS"] == 0 and viol == ["slots_counted"] and all(x in u for x in l1)
      and not set(t["bottleneck_path"]) & set(l1),
      f"slots 0, cycles 4e7: violated {viol}, level 1 untrusted, path {t['bottleneck_path'] or '(none)'}")
sys.exit(bad)
PY

# exports: nothing deeper than measured, '<==' on the path's last node
for name in skl3 gnr3 stuck; do
  f=$(ls "$work/$name"/*.json | tail -1)
  "$bin" export "$f" --toplev-csv "$work/$name.csv" --perf-json "$work/$name.pj" ||
    { echo "FAIL export $name"; fail=1; continue; }
  python3 - "$f" "$work/$name.csv" "$name" <<'PY' || fail=1
import csv, json, sys
doc = json.load(open(sys.argv[1]))
t = doc["run"]["workloads"][0]["counted"]["tree"]
rows = list(csv.DictReader(open(sys.argv[2])))
tree = [r for r in rows if r["Unit"] == "%"]
deep = [r["Area"] for r in tree if r["Area"].count(".") + 1 > 3]
nm = [r["Area"] for r in tree if t["nodes"][r["Area"].split(".")[-1]]["state"] == "not_measured"]
mark = [r["Area"].split(".")[-1] for r in rows if r["Bottleneck"] == "<=="]
want = t["bottleneck_path"][-1:] if t["bottleneck_path"] else []
ok = not deep and not nm and mark == want
print(("ok   " if ok else "FAIL ") + f"{sys.argv[3]} toplev CSV: {len(tree)} tree rows, none deeper than level 3 "
      f"({deep[:3]}) or not measured ({nm[:3]}); '<==' on {mark} (path ends {want})")
sys.exit(0 if ok else 1)
PY
done

# every output format: no nan, inf or negative zero
for name in skl3 gnr3 gnrdd lnl4 adle zen4 skldd stuck; do
  f=$(ls "$work/$name"/*.json | tail -1)
  "$bin" report "$f" --text "$work/$name.r.txt" --html "$work/$name.r.html" --csv "$work/$name.r.csv" \
    >/dev/null 2>&1 || { echo "FAIL report $name"; fail=1; }
  files=("$work/$name.txt" "$f" "$work/$name.r.txt" "$work/$name.r.html" "$work/$name.r.csv")
  for wl in $(python3 -c "import json,sys; print(' '.join(w['name'] for w in json.load(open(sys.argv[1]))['run']['workloads'] if 'counted' in w))" "$f"); do
    "$bin" export "$f" --workload "$wl" --toplev-csv "$work/$name.$wl.t.csv" --perf-json "$work/$name.$wl.p.json" \
      >/dev/null 2>&1 || { echo "FAIL export $name $wl"; fail=1; }
    files+=("$work/$name.$wl.t.csv" "$work/$name.$wl.p.json")
  done
  hits=$(grep -HnoiE '(\bnan\b|\binf\b|infinity|-0\.00\b|-0\.0000\b|: -0[,} ]|,-0[,%]?$)' "${files[@]}" | head -5)
  if [ -z "$hits" ]; then
    echo "ok   $name: no nan, inf or negative zero in ${#files[@]} outputs (console, results, report text/HTML/CSV, toplev CSV, perf JSON)"
  else
    echo "FAIL $name: $hits"; fail=1
  fi
done
exit $fail

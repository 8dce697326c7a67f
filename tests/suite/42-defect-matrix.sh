#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~26s
# Every defect of the SIMULATED PMU x every preset (`run --sim=help` lists
# them), each case in three runs: a Top-Down run with --no-health-check (so
# only the consistency rules can see the defect), the default Top-Down run
# (counter health check first) and `validate`. One workload per run
# (ptr-chase-dram, --quick, level 3) and quick validation sizes keep it short.
#
# A case passes when the defect
#  - is caught: a violated consistency rule, a health FAIL or a validate
#    FAIL; or
#  - cannot apply to the part: exit 2 saying "cannot apply", in the Top-Down
#    run and in validate alike; or
#  - changes nothing the runs count: the tree of the --no-health-check run
#    and every validate measurement equal those without the defect (an
#    encoding nothing reads; said per case, never assumed).
# A defect that changes a count and is caught by nothing fails the step.
# A default Top-Down run whose bottleneck path the defect moved must say so
# (health FAIL or a violated rule): never a moved bottleneck alone. A run
# (either kind) with a violated rule untrusts the nodes whose formulas read
# an event the rule points at: none of them on its bottleneck path, and the
# run exits 1. The
# stuck counter and the double count must each FAIL in validate wherever
# they change a count. With --no-health-check, a path the defect moved
# without a violated rule is listed by name and counted: the rules check
# relations the formulas imply (sums, [0, 1], the slots' partition, IPC,
# fixed/general twins), and a dead count that keeps every relation (SKL's
# STALLS_L3_MISS read as 0 turns DRAM_Bound into L3_Bound, both within
# Memory_Bound) is visible only to the health check and validate.
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
start=$(date +%s%N)
python3 - "$(pwd)/build/baretop-host" <<'PY'
import os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
bin = sys.argv[1]
h = subprocess.run([bin, "run", "--sim=help"], capture_output=True, text=True).stderr
m = re.search(r"presets: ([a-z0-9 -]+?) \(", h)
presets = m.group(1).split() if m else []
if len(presets) < 10:
    print(f"FAIL run --sim=help lists {len(presets)} presets: {h.strip()[:200]}")
    sys.exit(1)
dh = subprocess.run([bin, "run", "--sim-defect=help"], capture_output=True, text=True)
kinds_listed = re.findall(r"^([a-z0-9-]+)(?:\[:[A-Z/]*\])?: ", dh.stdout + dh.stderr, re.M)

def amd(p):
    return p in ("amd-legacy", "zen2", "zen4")

def kinds(p):
    a = amd(p)
    return ["stuck-counter:1", "stuck-counter:0",
            "double-count:" + ("0xC2/0x00" if a else "0xC4/0x00"), "double-count:0xC0/0x00",
            "narrow-counter:1", "fixed-dead:0", "fixed-dead:1", "fixed-dead:2", "fixed-dead:3",
            "no-overflow-bit:1",
            "umask-ignored:" + ("0x1A0" if p == "zen4" else "0xC2" if a else "0xC4"),
            "fw-truncates", "pm-sticky", "amd-alias-split", "global-ignored", "rdpmc-fixed-gp"]

missing = set(kinds_listed) - {k.split(":")[0] for k in kinds("skl")}
if missing or len(kinds_listed) < 11:
    print(f"FAIL the matrix lacks defect kinds {sorted(missing)} (listed: {kinds_listed})")
    sys.exit(1)

def td(p, defect, health):
    args = [bin, "run", f"--sim={p}", "--quick", "-w", "ptr-chase-dram", "--level", "3",
            "--no-results"]
    if not health:
        args.append("--no-health-check")
    if defect:
        args.append(f"--sim-defect={defect}")
    return subprocess.run(args, capture_output=True, text=True)

def val(p, defect):
    args = [bin, "validate", f"--sim={p}", "-q", "--quick", "--no-results"]
    if defect:
        args.append(f"--sim-defect={defect}")
    return subprocess.run(args, capture_output=True, text=True)

def tree(out):
    return [l for l in out.splitlines() if re.match(r"^  \d +\S", l)]

def measured(out):
    # verdict, check id and measured column of every check line
    return [" ".join(l.split()[:3]) for l in out.splitlines() if re.match(r"^  (PASS|FAIL|SKIP) ", l)]

def path(out):
    m = re.search(r"^bottleneck path: ([^\n]*)", out, re.M)
    return m.group(1).split(" -- ")[0] if m else None

def violated(out):
    m = re.search(r"consistency: \d+ rules held, (\d+) violated", out)
    return int(m.group(1)) if m else 0

def untrusted(out):
    # the console's list after the tree: "untrusted (...): N nodes:" then the names
    m = re.search(r"^untrusted \(.*?\): (\d+) nodes?:\n((?:  \S.*\n)+)", out, re.M | re.S)
    return set(re.split(r",\s*", " ".join(m.group(2).split()))) if m else set()

def judged(tag, r):
    # a tree with a violated rule: the nodes reading what the rule names are
    # untrusted, the path goes through none of them, the run exits 1
    u = untrusted(r.stdout)
    on = set((path(r.stdout) or "").split(" > ")) & u
    if violated(r.stdout) and (r.returncode != 1 or not u or on):
        fail(f"{tag}: {violated(r.stdout)} violated rule(s) but exit {r.returncode}, "
             f"{len(u)} untrusted node(s), untrusted on the path: {sorted(on)}")
    return len(u)

def one(case):
    p, d = case
    return case, td(p, d, False), td(p, d, True), val(p, d)

def clean(p):
    return p, td(p, "", False), val(p, "")


cases = [(p, d) for p in presets for d in kinds(p)]
with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as ex:
    base = {p: (t, v) for p, t, v in ex.map(clean, presets)}
    res = list(ex.map(one, cases))

bad = 0
def fail(msg):
    global bad
    bad = 1
    print("FAIL " + msg)

for p, (t, v) in base.items():
    if t.returncode != 0 or v.returncode != 0 or violated(t.stdout):
        fail(f"{p} without a defect: run status {t.returncode}, validate {v.returncode}, "
             f"{violated(t.stdout)} violated rule(s)")

rows, counts = [], {}
tally = dict(rule=0, health=0, validate=0, caught=0, na=0, noeffect=0, moved_no_rule=0,
             path_no_rule=0, untrusted=0)
path_no_rule = []
for (p, d), tn, th, v in res:
    has_model = bool(tree(base[p][0].stdout))
    if tn.returncode == 2 or th.returncode == 2 or v.returncode == 2:
        ok = all(r.returncode == 2 and "cannot apply" in r.stderr for r in (tn, th, v))
        if not ok:
            fail(f"{p} {d}: status {tn.returncode}/{th.returncode}/{v.returncode} "
                 f"(--no-health-check/default/validate), not 2 with 'cannot apply' in all: "
                 f"{(tn.stderr or v.stderr).strip()[:160]}")
        rows.append((p, d, "n/a", "cannot apply (exit 2)"))
        tally["na"] += 1
        counts.setdefault(p, {}).setdefault("n/a", 0)
        counts[p]["n/a"] += 1
        continue
    how = []
    nv = violated(tn.stdout)
    nu = judged(f"{p} {d} --no-health-check", tn)
    judged(f"{p} {d} (default run)", th)
    if nv:
        how.append(f"rule ({nv}; {nu} node(s) untrusted, exit 1)")
        tally["untrusted"] += 1
    if re.search(r"^health        FAIL", th.stdout, re.M):
        how.append("health")
    elif violated(th.stdout):
        how.append("rule (default run)")
    vf = [l.split()[1] for l in v.stdout.splitlines() if l.startswith("  FAIL")]
    if v.returncode == 1 and vf:
        how.append("validate " + vf[0] + (f" +{len(vf) - 1}" if len(vf) > 1 else ""))
    moved = has_model and tree(tn.stdout) != tree(base[p][0].stdout)
    effect = moved or measured(v.stdout) != measured(base[p][1].stdout)
    for k in ("rule", "health", "validate"):
        tally[k] += any(h.startswith(k) for h in how)
    key = "caught" if how else "no effect" if not effect else "NOT CAUGHT"
    counts.setdefault(p, {}).setdefault(key, 0)
    counts[p][key] += 1
    if how:
        tally["caught"] += 1
    elif not effect:
        tally["noeffect"] += 1
    else:
        fail(f"{p} {d}: changes a count (tree moved: {moved}) and nothing catches it")
    if moved and not nv:
        tally["moved_no_rule"] += 1
    if has_model and path(tn.stdout) != path(base[p][0].stdout) and not nv:
        tally["path_no_rule"] += 1
        path_no_rule.append(f"{p} {d}: {path(base[p][0].stdout)} -> {path(tn.stdout)}")
    if has_model and path(th.stdout) != path(base[p][0].stdout) and \
            not any(h.startswith(("rule", "health")) for h in how):
        fail(f"{p} {d}: the default Top-Down run moved the bottleneck path "
             f"({path(base[p][0].stdout)} -> {path(th.stdout)}) with no health FAIL and no violated rule")
    note = ", ".join(how) or ("no effect: tree and every validate measurement as without it"
                              if not effect else "NOT CAUGHT")
    if moved and not nv:
        note += "; tree moved, no rule violated (--no-health-check)"
    if not has_model:
        note += "; no Top-Down model (timed only)"
    rows.append((p, d, "caught" if how else "-", note))
    # the stuck counter and the double count: a FAIL in validate
    if d.split(":")[0] in ("stuck-counter", "double-count") and effect and \
            not any(h.startswith("validate") for h in how):
        fail(f"{p} {d}: validate FAILs nothing")

print(f"--- SIMULATED PMU: defect x preset, {len(cases)} cases: Top-Down run "
      f"(--no-health-check: rules; default: health), validate ---")
for p, d, _, note in rows:
    print(f"  {p:10} {d:24} {note}")
print(f"{'preset':10} {'cases':>5} {'caught':>6} {'n/a':>4} {'no effect':>9}")
for p in presets:
    c = counts.get(p, {})
    print(f"{p:10} {sum(c.values()):>5} {c.get('caught', 0):>6} {c.get('n/a', 0):>4} "
          f"{c.get('no effect', 0):>9}")
print(f"{len(cases)} cases over {len(presets)} presets: {tally['caught']} caught "
      f"(by a violated rule {tally['rule']}, its nodes untrusted and exit 1 in {tally['untrusted']}, "
      f"health {tally['health']}, validate {tally['validate']}; "
      f"a case may be caught by several), {tally['na']} cannot apply (exit 2), "
      f"{tally['noeffect']} change nothing counted; {tally['moved_no_rule']} moved the tree "
      f"without a violated rule (--no-health-check)")
print(f"--no-health-check runs whose bottleneck path moved without a violated rule "
      f"({len(path_no_rule)}; the default run's health check or validate caught each):")
for l in path_no_rule:
    print("  " + l)
print("ok   every defect caught, refused or without effect" if not bad else "FAIL defect matrix")
sys.exit(bad)
PY
rc=$?
echo "step time: $(( ($(date +%s%N) - start) / 1000000 )) ms"
exit $rc

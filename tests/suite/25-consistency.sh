#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~12s
# The consistency rules (metrics/rules.h) on every reference vector: each
# case of ../shared/testdata/tma (and its real recordings) replayed with its
# rule verdicts. The real recordings must pass every rule their events
# allow; the other vectors are random or adversarial counts (not physically
# consistent), so they may violate rules and are only reported, per model:
# the rules derived by kind, the vectors, and how many violate what.
set -euo pipefail
shared=${BT_SHARED_TESTDATA:-../shared/testdata}
[ -x build/baretop-host ] || make -s -j2 host >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/baretop-host rules >"$work/rules.txt"
if [ -d "$shared/tma" ]; then
  root=$shared/tma
else
  echo "vectors: tests/data/tma -- a SUBSET (../shared/testdata is absent)"
  root=tests/data/tma
fi
find "$root" -name '*.json' | sort >"$work/list"
build/baretop-host replay --json --out-dir "$work/out" --base "$root" $(cat "$work/list") 2>"$work/err" || {
  echo "FAIL: replay"; head "$work/err"; exit 1; }
python3 - "$work" "$root" <<'PY'
import json, os, sys
from collections import defaultdict
work, root = sys.argv[1:3]
derived = {}
lines = open(f"{work}/rules.txt").read().splitlines()
head = lines[0].split()
for line in lines[1:]:
    f = line.split()
    if len(f) != len(head):
        continue  # the note under the table
    row = dict(zip(head, f))
    derived[f[0]] = {k: row[k] for k in ("level1_sum", "parent_sum", "not_implied", "fraction",
                                         "ipc_width", "fixed_general", "total")}
per = defaultdict(lambda: dict(vectors=0, violating=0, violations=defaultdict(int), held=0, na=0))
fail = []
for path in open(f"{work}/list").read().split():
    rel = os.path.relpath(path, root)
    case = json.load(open(path))
    out = json.load(open(os.path.join(work, "out", rel)))
    cons = out.get("consistency")
    if cons is None:
        fail.append(f"{rel}: no consistency verdicts"); continue
    model = out["model"]
    p = per[model]
    p["vectors"] += 1
    bad = [c for c in cons if c["state"] == "violated"]
    p["held"] += sum(c["state"] == "held" for c in cons)
    p["na"] += sum(c["state"] == "not_applicable" for c in cons)
    p["violating"] += bool(bad)
    for c in bad:
        p["violations"][c["kind"]] += 1
    if case.get("kind") == "real":
        held = sum(c["state"] == "held" for c in cons)
        print(f"real recording {rel} ({model}): {held} rules held, {len(bad)} violated, "
              f"{len(cons) - held - len(bad)} not applicable (events not in the recording)")
        if bad or not held:
            fail.append(f"{rel}: a real recording violates " +
                        "; ".join(f"{c['rule']} ({c['lhs']} against {c['rhs']})" for c in bad))
print(f"{'model':8} {'L1sum':>5} {'sums':>4} {'notimp':>6} {'frac':>4} {'ipc':>3} {'fixgen':>6} "
      f"{'rules':>5} {'vectors':>7} {'violating':>9}  violations by kind")
for m in sorted(per):
    d, p = derived.get(m, {}), per[m]
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(p["violations"].items())) or "-"
    print(f"{m:8} {d.get('level1_sum','?'):>5} {d.get('parent_sum','?'):>4} {d.get('not_implied','?'):>6} "
          f"{d.get('fraction','?'):>4} {d.get('ipc_width','?'):>3} {d.get('fixed_general','?'):>6} "
          f"{d.get('total','?'):>5} {p['vectors']:>7} {p['violating']:>9}  {kinds}")
n = sum(p["vectors"] for p in per.values())
print(f"{n} vectors replayed with their rule verdicts; "
      f"{sum(p['violating'] for p in per.values())} violate some rule (random/adversarial counts, reported)")
if fail:
    print("FAIL"); print("\n".join(fail[:20])); sys.exit(1)
print("ok   the real recordings pass every rule their events allow")
PY

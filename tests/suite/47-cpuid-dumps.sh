#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~5s
# `baretop-host detect --cpuid` on the CPUID dumps of 28 real machines in
# ../shared/reference/cpuid/ (skipped with a message when absent) and on the
# hand-written `cpuid -r` samples in tests/data/cpuid/: exit 0 and valid JSON
# of the documented shape for every dump, the hybrid Raptor Lake P-core with
# 8 general counters, fixed mask 0xf and PERF_METRICS, the two Arrow Lake H
# Atom kinds with different fixed masks, and a malformed dump refused with
# its line number and status 2; the Top-Down source (a published model or
# ARCH, its events, SLOTS_PER_CYC) of a Panther Lake subset in tests/data, and
# TNT (Tremont's own Top-Down events) on an Elkhart Lake subset.
# The per-group expectations written by hand
# from Linux perf's rules are in tests/unit/test-cpuid-dumps.c (run here too).
set -uo pipefail
make -s -j"$(nproc)" host tests >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
dir=${BT_SHARED_CPUID:-../shared/reference/cpuid}

# The documented shape, checked on every FILE given (one python for all:
# a start per dump cost seconds where python3 is a version-manager shim).
shape='
import json, os, sys
def check(path):
    d = json.load(open(path))
    assert list(d) == ["core_types"] and d["core_types"], "no core_types"
    for g in d["core_types"]:
        assert list(g) == ["cpus", "core_type", "native_model_id", "model", "general_counters",
                           "fixed_mask", "perf_metrics", "topdown", "notes"], list(g)
        t = g["topdown"]
        assert list(t) == ["source", "level1_from", "slots", "slots_per_cycle",
                           "bad_speculation", "events", "reason"], list(t)
        assert (t["source"] is None) == (t["reason"] is not None), t
        assert (t["source"] is None) == (t["events"] == []), t
        for e in t["events"]:
            assert list(e) == ["name", "code", "umask"] and e["code"].startswith("0x"), e
        assert g["cpus"] and all(isinstance(c, int) for c in g["cpus"])
        assert g["core_type"] in ("P-core", "E-core", "none")
        assert g["model"] is None or isinstance(g["model"], str)
        assert g["fixed_mask"].startswith("0x") and isinstance(g["perf_metrics"], bool)
        assert all(isinstance(n, str) for n in g["notes"])
bad = 0
for path in sys.argv[1:]:
    try:
        check(path)
    except Exception as e:
        print(f"FAIL {os.path.basename(path)[:-5]}: JSON shape: {type(e).__name__}: {e}"); bad = 1
sys.exit(bad)
'

if [ -d "$dir" ]; then
  n=0
  made=()
  for f in "$dir"/*.cpuid; do
    name=$(basename "$f" .cpuid)
    if ! "$bin" detect --cpuid "$f" --json >"$work/$name.json" 2>"$work/err"; then
      echo "FAIL detect $name: $(head -1 "$work/err")"; fail=1; continue
    fi
    "$bin" detect --cpuid "$f" >/dev/null 2>&1 || { echo "FAIL detect $name (text)"; fail=1; }
    made+=("$work/$name.json")
    n=$((n + 1))
  done
  [ $n -eq 0 ] || python3 -c "$shape" "${made[@]}" || fail=1
  echo "ok   detect --cpuid on $n reference dumps: status 0, JSON of the documented shape"
  py='
import json, sys
rpl = json.load(open(sys.argv[1]))["core_types"]
p = [g for g in rpl if g["core_type"] == "P-core"][0]
assert (p["general_counters"], p["fixed_mask"], p["perf_metrics"]) == (8, "0xf", True), p
arlh = json.load(open(sys.argv[2]))["core_types"]
e = {g["native_model_id"]: g for g in arlh if g["core_type"] == "E-core"}
assert e[3]["fixed_mask"] == "0x77" and e[2]["fixed_mask"] == "0x7", e
# Crestmont LP-E: the model of its core, Meteor Lake E-core, by core lineage
assert e[3]["model"] == "ARL-SKT" and e[2]["model"] == "MTL-CMT", e
'
  if python3 -c "$py" "$work/GenuineIntel00B0671_RaptorLake_01_CPUID.json" \
       "$work/GenuineIntel00C0652_ArrowLakeH_04_CPUID.json" 2>"$work/err"; then
    echo "ok   Raptor Lake P-core: 8 general, fixed 0xf, PERF_METRICS; ARL-H Skymont 0x77, Crestmont 0x7 (MTL-CMT)"
  else
    echo "FAIL hybrid expectations: $(tail -1 "$work/err")"; fail=1
  fi
else
  echo "skip reference dumps: $dir not found (set BT_SHARED_CPUID)"
fi

# Panther Lake (tests/data subset of the reference dump, so this runs
# without ../shared): no published model, ARCH on both kinds, expected by
# hand from CPUID: P-core 23H.3 = 1DFFh (no event 9), PERF_METRICS assumed
# from the Lion Cove class -> level 1 from its fields; E-core 1F7Fh, 23H.0
# ECX = 8 -> 8 x cycles, Bad Speculation counted (73H/00H).
if "$bin" detect --cpuid tests/data/cpuid/ptl-subset.cpuid --json >"$work/ptl.json" &&
   python3 -c "$shape" "$work/ptl.json" &&
   python3 -c '
import json, sys
p, e = json.load(open(sys.argv[1]))["core_types"]
assert p["model"] == "ARCH" and p["topdown"]["source"] == "ARCH", p
assert p["topdown"]["level1_from"] == "PERF_METRICS" and p["topdown"]["slots_per_cycle"] == 0, p
t = e["topdown"]
assert t["source"] == "ARCH" and t["level1_from"] == "architectural events", t
assert t["slots_per_cycle"] == 8 and t["slots"].startswith("SLOTS_PER_CYC x core cycles"), t
assert t["bad_speculation"] == "counted", t
codes = {(x["code"], x["umask"]) for x in t["events"]}
assert {("0xA4", "0x02"), ("0x73", "0x00"), ("0x9C", "0x01"), ("0xC2", "0x02")} <= codes, codes
' "$work/ptl.json"; then
  echo "ok   Panther Lake subset: ARCH on both kinds; E-core 8 x cycles, A4/02 73/00 9C/01 C2/02"
else
  echo "FAIL Panther Lake subset"; fail=1
fi

# Elkhart Lake (tests/data subset): Tremont, 0AH length 7 and no leaf 23H, so
# no architectural Top-Down events; expected by hand from Linux core.c
# (tnt_events_attrs) and the lineage rule: TNT, its own events 71H/00H,
# 73H/06H, 74H/00H, C2H/00H over 4 x cycles, Bad Speculation counted.
if "$bin" detect --cpuid tests/data/cpuid/ehl-subset.cpuid --json >"$work/ehl.json" &&
   python3 -c "$shape" "$work/ehl.json" &&
   python3 -c '
import json, sys
g, = json.load(open(sys.argv[1]))["core_types"]
t = g["topdown"]
assert g["model"] == "TNT" and t["source"] == "TNT", g
assert t["level1_from"] == "Tremont model-specific Top-Down events (Linux core.c)", t
assert t["slots"].startswith("4 x core cycles") and t["slots_per_cycle"] == 0, t
assert t["bad_speculation"] == "counted" and t["reason"] is None, t
codes = {(x["code"], x["umask"]) for x in t["events"]}
assert {("0x71", "0x00"), ("0x73", "0x06"), ("0x74", "0x00"), ("0xC2", "0x00")} <= codes, codes
' "$work/ehl.json" &&
   "$bin" detect --cpuid tests/data/cpuid/ehl-subset.cpuid >"$work/ehl.txt" &&
   grep -q "Top-Down          TNT, level 1 from Tremont model-specific" "$work/ehl.txt"; then
  echo "ok   Elkhart Lake subset: TNT, 71/00 73/06 74/00 C2/00 over 4 x cycles (text and JSON)"
else
  echo "FAIL Elkhart Lake subset"; fail=1
fi

if "$bin" detect --cpuid tests/data/cpuid/raw-rpl-2p2e.txt --json >"$work/raw.json" &&
   python3 -c "$shape" "$work/raw.json" &&
   python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["core_types"]
assert [x["cpus"] for x in g] == [[0, 1], [2, 3]], g
assert [x["model"] for x in g] == ["ADL-GLC", "ADL-GRT"], g
' "$work/raw.json"; then
  echo "ok   cpuid -r sample: CPUs 0,1 (ADL-GLC) and 2,3 (ADL-GRT) grouped"
else
  echo "FAIL cpuid -r sample"; fail=1
fi

"$bin" detect --cpuid tests/data/cpuid/malformed-raw.txt >"$work/out" 2>"$work/err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q "malformed-raw.txt: line 4:" "$work/err"; then
  echo "ok   malformed dump: status 2, \"$(head -1 "$work/err")\""
else
  echo "FAIL malformed dump: status $rc, $(head -1 "$work/err")"; fail=1
fi
"$bin" detect --cpuid "$work/none" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && echo "ok   missing file: status 2" || { echo "FAIL missing file: status $rc"; fail=1; }

if build/host/tests/test-cpuid-dumps >"$work/unit" 2>&1; then
  echo "ok   test-cpuid-dumps: every group as written by hand from Linux perf's rules"
else
  echo "FAIL test-cpuid-dumps"; grep -v '^#\|^ok' "$work/unit" | head; fail=1
fi
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~4s
# The simulated PMU's numbers follow its own models (synth/), end to end
# through `baretop-host run --sim`:
#   - multiply1 at n = 64, 128, 256 (an n x n x n loop nest): instructions
#     x8 per doubling, and so the simulated time; the time is the run's TSC
#     ticks at the simulated CPU's stated clock (counted.tsc_hz, 3 GHz),
#     DURATIONTIMEINMILLISECONDS is that time, and the console calls it
#     SIMULATED time;
#   - branch-mispredict at taken_pct 0, 50, 100: the same instructions;
#     0 and 100 (predictable) with Bad_Speculation below 5 %, 50 above 50 %
#     and slower;
#   - SMT as the simulated CPU has it, not the host: skl (an i7-8700K, SMT
#     on) counts with 4 general counters and THREADS_PER_CORE 2, skl-nosmt
#     (an i5-6400T) with 8 and 1.
# It prints the figures.
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail=0
run() { # NAME SIM WORKLOAD-SPEC
  "$bin" run --sim="$2" --quick --reps 1 --warmups 0 --level 2 -w "$3" --results-dir "$w/$1" \
    >"$w/$1.out" 2>&1 || { echo "FAIL run $2 $3"; fail=1; }
}
for n in 64 128 256; do run mm$n skl "multiply1:n=$n"; done
for t in 0 50 100; do run bm$t skl "branch-mispredict:taken_pct=$t"; done
run nosmt skl-nosmt multiply1
python3 - "$w" <<'PY' || fail=1
import glob, json, re, sys
w = sys.argv[1]
def doc(name):
    d = json.load(open(sorted(glob.glob(f"{w}/{name}/*.json"))[-1]))
    return d, d["run"]["workloads"][0]["counted"]
fail = []
print("     workload                       instructions   cycles       TSC ticks  sim. time (ms)  Bad_Spec")
rows = {}
for name in ["mm64", "mm128", "mm256", "bm0", "bm50", "bm100"]:
    d, c = doc(name)
    st = c["steps"][0]
    hz = c["tsc_hz"]
    ms = st["tsc_median"] * 1e3 / hz
    bs = c["tree"]["nodes"]["Bad_Speculation"]["value"]
    rows[name] = (st["instructions_median"], st["cycles_median"], st["tsc_median"], ms, bs)
    label = d["run"]["workloads"][0]["name"] + ":" + d["run"]["workloads"][0]["params"]
    print(f"     {label:30} {rows[name][0]:>12} {rows[name][1]:>9} {rows[name][2]:>12} {ms:>14.4f}  {bs:8.2%}")
    if hz != 3000000000 or not c["simulated"] or not c["time"].startswith("simulated"):
        fail.append(f"{name}: clock {hz}, time {c['time']!r}")
    if abs(c["constants"]["DURATIONTIMEINMILLISECONDS"] - ms) > 1e-9 * ms:
        fail.append(f"{name}: DURATIONTIMEINMILLISECONDS {c['constants']['DURATIONTIMEINMILLISECONDS']} != {ms}")
    if c["constants"]["SYSTEM_TSC_FREQ"] != st["tsc_median"]:
        fail.append(f"{name}: SYSTEM_TSC_FREQ is not the run's simulated TSC ticks")
    out = open(f"{w}/{name}.out").read()
    if not re.search(r"ms per run \(median, SIMULATED time at 3\.00 GHz\)", out):
        fail.append(f"{name}: the console does not call the time simulated")
# n -> 2n: x8 (the model's seeded noise is the same for every n)
for a, b in [("mm64", "mm128"), ("mm128", "mm256")]:
    for k, what in [(0, "instructions"), (3, "time")]:
        r = rows[b][k] / rows[a][k]
        if abs(r - 8) > 0.01:
            fail.append(f"{what} {a} -> {b}: x{r:.4f}, want x8")
i0, i50, i100 = rows["bm0"][0], rows["bm50"][0], rows["bm100"][0]
if not (i0 == i50 == i100):
    fail.append(f"branch-mispredict instructions differ with taken_pct: {i0} {i50} {i100}")
if not (rows["bm0"][4] < 0.05 and rows["bm100"][4] < 0.05 and rows["bm50"][4] > 0.5):
    fail.append("Bad_Speculation at taken_pct 0/50/100: " + " ".join(f"{rows[n][4]:.3f}" for n in ("bm0", "bm50", "bm100")))
if not rows["bm50"][3] > 2 * rows["bm0"][3]:
    fail.append("taken_pct 50 is not slower than 0")
# SMT: the simulated CPU's
for name, gp, tpc in [("mm64", 4, 2), ("nosmt", 8, 1)]:
    d, c = doc(name)
    got = (d["run"]["counting"]["general_counters"], c["constants"]["THREADS_PER_CORE"])
    if got != (gp, tpc):
        fail.append(f"{name}: {got[0]} general counters, THREADS_PER_CORE {got[1]}; want {gp}, {tpc}")
print("     SMT: skl 4 general counters, 2 threads per core; skl-nosmt 8 and 1" if not any("THREADS" in f for f in fail) else "")
if fail:
    print("FAIL"); [print("    " + f) for f in fail]; sys.exit(1)
print("ok   instructions and simulated time x8 per doubling of n; taken_pct 0/100 predictable, 50 "
      "Bad_Speculation; SMT as the simulated CPU has it")
PY
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~40s
# The measurement harness and the built-in workloads, end to end in QEMU
# (TCG, no PMU): the default suite runs and is timed on an Intel and an AMD
# CPU model with 3 CPUs (a two-core workload runs on two APs: baretop's CPU
# waits in the firmware's blocking StartupAllAPs), every checksum equals the
# hosted build's, and an EFI application built by the tests is measured with
# -x.
set -uo pipefail

out=build/qemu/suite-wl
fail=0
pass=0
ok()  { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

mkdir -p "$out"
make -s -j"$(nproc)" efi host >/dev/null || { echo "FAIL build"; exit 1; }

./build/baretop-host workloads --quick --json >"$out/hosted.json" 2>"$out/hosted.err" \
  && ok "hosted reference run" || { bad "hosted reference run"; cat "$out/hosted.err"; }

for cpu in Skylake-Client default; do
  args=(--smp 3 --out "$out/$cpu")
  [ "$cpu" != default ] && args+=(--cpu "$cpu")
  t0=$(date +%s)
  if bash qemu/run.sh "${args[@]}" >/dev/null 2>"$out/$cpu.err"; then
    ok "$cpu: default suite completed, exit status 0 ($(( $(date +%s) - t0 ))s)"
  else
    bad "$cpu: exit status $?"; tail -20 "$out/$cpu/console.txt"
  fi
  python3 tests/qemu/check-workloads.py "$out/$cpu/esp/baretop/results/000001.json" \
    "$out/hosted.json" --expect-all && ok "$cpu: workloads checked" || bad "$cpu: workloads"
done
grep -q "vector state: XCR0 = 0x7 (AVX), enabled by baretop" "$out/Skylake-Client/console.txt" \
  && ok "Skylake-Client: baretop enabled the AVX state itself" || bad "AVX state not enabled"

# An EFI application as the workload: it must run with its argument, once
# per run (1 warm-up + 5), and its exit data carries its own checksum, which
# is recomputed here independently.
rounds=250000
want=$(python3 -c "
x = 0x9e3779b97f4a7c15
for i in range($rounds):
    x ^= x >> 31; x = (x * 0xbf58476d1ce4e5b9) & (2**64 - 1); x = (x + i) & (2**64 - 1)
print('rounds=$rounds checksum=0x%X' % x)")
if bash qemu/run.sh --cpu Skylake-Client --out "$out/exec" \
     --add build/tests/spin-workload.efi=/tools/spin.efi \
     --args "-x \\tools\\spin.efi $rounds" >/dev/null 2>"$out/exec.err"; then
  ok "-x: exit status 0"
else
  bad "-x: exit status $?"; tail -20 "$out/exec/console.txt"
fi
python3 - "$out/exec/esp/baretop/results/000001.json" "$want" <<'PY' && ok "-x: the application ran with its argument (exit data: $want)" || bad "-x: results"
import json, sys
r = json.load(open(sys.argv[1]))
w = r["run"]["workloads"]
assert len(w) == 1, w
w = w[0]
assert w["name"] == "\\tools\\spin.efi", w["name"]
assert w["state"] == "ran", w
assert w["params"] == "250000", w["params"]
assert w["note"].endswith("exit data: " + sys.argv[2]), (w["note"], sys.argv[2])
assert w["time"]["runs"] == r["run"]["reps"] == 5
PY

# Every CPU one after another (MP services, blocking calls only; AVX state
# enabled on each AP), and the multi-copy mode.
if bash qemu/run.sh --cpu Skylake-Client --smp 4 --out "$out/cpus" \
     --args "-w multiply3 -w false-sharing --cpu all" >/dev/null 2>&1; then
  ok "--cpu all: exit status 0"
else
  bad "--cpu all: exit status $?"
fi
python3 - "$out/cpus/esp/baretop/results/000001.json" "$out/hosted.json" <<'PY' && ok "--cpu all: multiply3 ran with AVX on CPUs 0-3 with the hosted checksum; false-sharing on APs 1-3, each with a partner AP and the hosted checksum, skipped on baretop's CPU 0 with a reason; every AP job's stack figures recorded" || bad "--cpu all: results"
import json, sys
w = json.load(open(sys.argv[1]))["run"]["workloads"]
host = {h["name"]: h for h in json.load(open(sys.argv[2]))["workloads"]}
m3 = [x for x in w if x["name"] == "multiply3"]
assert sorted(x["cpu"] for x in m3) == [0, 1, 2, 3], m3
assert all(x["state"] == "ran" and int(x["checksum"], 16) == int(host["multiply3"]["checksum"], 16) for x in m3)
# Skylake-Client has AVX2 but not AVX-512: the automatic choice must be AVX
# on every CPU, so XCR0/CR4 were set up on each AP (not just the BSP).
assert all(x["note"].startswith("isa=avx (auto)") for x in m3), [x["note"] for x in m3]
fs = {x["cpu"]: x for x in w if x["name"] == "false-sharing"}
assert fs[0]["state"] == "skipped" and "measured on the APs" in fs[0]["reason"], fs[0]
for c in (1, 2, 3):
    x = fs[c]
    assert x["state"] == "ran" and x["partner_cpu"] not in (0, c), x
    assert int(x["checksum"], 16) == int(host["false-sharing"]["checksum"], 16), x
# each AP job ran on baretop's own stack; OVMF's AP stacks are 32 KiB, what
# baretop used of them is far below even 4 KiB
for x in w:
    if x["cpu"] != 0 and x["state"] == "ran":
        s = x["ap_stack"]
        assert s["jobs"] >= 1 and not s["overflow"] and s["used_bytes"] < s["size_bytes"], x
        assert 0 < s["firmware_used_bytes"] <= 4096, x
PY
# A two-core workload with one AP cannot run (the measured CPU and its
# partner are both APs): a failure, with the reason.
if bash qemu/run.sh --cpu Skylake-Client --smp 2 --out "$out/elsewhere" \
     --args "-w false-sharing --cpu 1" >/dev/null 2>&1; then
  bad "-w false-sharing --cpu 1 on 2 CPUs: exit status 0, but the workload cannot run"
else
  python3 - "$out/elsewhere/esp/baretop/results/000001.json" <<'PY' && ok "-w false-sharing --cpu 1 on 2 CPUs: skipped with a reason, exit status non-zero" || bad "-w false-sharing --cpu 1: results"
import json, sys
w = json.load(open(sys.argv[1]))["run"]["workloads"]
assert len(w) == 1 and w[0]["state"] == "skipped" and w[0]["cpu"] == 1 and "needs 2 APs" in w[0]["reason"], w
PY
fi
if bash qemu/run.sh --cpu Skylake-Client --smp 5 --out "$out/copies" \
     --args "-w stream-triad --copies 4" >/dev/null 2>&1; then
  ok "--copies 4: exit status 0"
else
  bad "--copies 4: exit status $?"
fi
python3 - "$out/copies/esp/baretop/results/000001.json" <<'PY' && ok "--copies 4: ran as 4 simultaneous copies on 4 APs, the measured one an AP (placement said)" || bad "--copies 4: results"
import json, sys
w = json.load(open(sys.argv[1]))["run"]["workloads"]
assert len(w) == 1 and w[0]["state"] == "ran" and w[0]["copies"] == 4, w
assert w[0]["cpu"] != 0 and "an AP" in w[0]["placement"], w
PY

if bash tests/suite/lib/esp-results-schema.sh "$out"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "qemu workloads: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

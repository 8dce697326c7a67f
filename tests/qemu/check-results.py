#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a baretop results file field by field against what a QEMU CPU model
implies. The expectations are QEMU 7.2's own CPU model definitions
(target/i386/cpu.c, builtin_x86_defs), not baretop's output.

usage: check-results.py RESULTS.json CPU_MODEL SMP [--fault-selftest]
"""
import json
import sys

# QEMU 7.2, target/i386/cpu.c: .family, .model, .stepping, .model_id, vendor.
# "default" is what qemu-system-x86_64 uses without -cpu: qemu64.
MODELS = {
    "default": dict(vendor="AuthenticAMD", family=15, model=107, stepping=1,
                    brand="QEMU Virtual CPU version 2.5+", avx2=False),
    "qemu64": dict(vendor="AuthenticAMD", family=15, model=107, stepping=1,
                   brand="QEMU Virtual CPU version 2.5+", avx2=False),
    # { "Skylake-Client", .level = 0xd, CPUID_VENDOR_INTEL, 6, 94, 3, ... }
    "Skylake-Client": dict(vendor="GenuineIntel", family=6, model=0x5e, stepping=3,
                           brand="Intel Core Processor (Skylake)", avx2=True),
    # .family = 6, .model = 134, .stepping = 0 (134 = 0x86, not ICX's 0x6a:
    # QEMU's choice, kept for migration compatibility)
    "Icelake-Server": dict(vendor="GenuineIntel", family=6, model=134, stepping=0,
                           brand="Intel Xeon Processor (Icelake)", avx2=True),
    "EPYC": dict(vendor="AuthenticAMD", family=0x17, model=1, stepping=2,
                 brand="AMD EPYC Processor", avx2=True),
}

failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def main():
    path, cpu, smp = sys.argv[1], sys.argv[2], int(sys.argv[3])
    selftest = "--fault-selftest" in sys.argv[4:]
    m = MODELS[cpu]
    with open(path) as f:
        r = json.load(f)

    expect("format", r.get("format"), "baretop-results")
    expect("format_version", r.get("format_version"), 3)
    expect("simulated", r.get("simulated"), False)
    expect("sequence is a positive integer", isinstance(r.get("sequence"), int) and r["sequence"] > 0, True)
    p = r["platform"]
    expect("platform.name", p["name"], "UEFI")
    expect("platform.arch_backend", p["arch_backend"], "hardware")
    expect("platform.firmware_vendor", p["firmware_vendor"], "EDK II")
    expect("platform.program_path", p["program_path"], "\\EFI\\BOOT\\BOOTX64.EFI")

    c = r["cpu"]
    expect("cpu.vendor", c["vendor"], m["vendor"])
    expect("cpu.family", c["family"], m["family"])
    expect("cpu.family_hex", c["family_hex"], hex(m["family"]))
    expect("cpu.model", c["model"], m["model"])
    expect("cpu.model_hex", c["model_hex"], hex(m["model"]))
    expect("cpu.stepping", c["stepping"], m["stepping"])
    expect("cpu.brand", c["brand"], m["brand"])
    expect("cpu.hypervisor", c["hypervisor"], True)          # TCG sets CPUID.01H:ECX[31]
    expect("cpu.hypervisor_vendor", c["hypervisor_vendor"], "TCGTCGTCGTCG")
    expect("cpu.logical_cpus", c["logical_cpus"], smp)
    expect("cpu.logical_cpus_enabled", c["logical_cpus_enabled"], smp)
    expect("cpu.packages", c["packages"], 1)
    expect("cpu.threads_per_core", c["threads_per_core"], 1)
    expect("cpu.smt", c["smt"], False)
    expect("cpu.hybrid", c["hybrid"], False)
    expect("cpu.avx2", c["avx2"], m["avx2"])
    expect("cpu.tsc_hz is positive", isinstance(c["tsc_hz"], int) and c["tsc_hz"] > 0, True)

    pmu = r["pmu"]
    expect("pmu.present", pmu["present"], False)              # TCG has no PMU
    expect("pmu.kind", pmu["kind"], "none")
    if m["vendor"] == "GenuineIntel":
        expect("pmu.arch_perfmon_version", pmu["arch_perfmon_version"], 0)
        expect("pmu.reason mentions CPUID.0AH version 0",
               "CPUID.0AH reports version 0: no architectural PMU" in pmu["reason"], True)
    else:
        expect("pmu.perfmon_v2", pmu["perfmon_v2"], False)
        expect("pmu.reason mentions the legacy counters", "legacy counters" in pmu["reason"], True)

    g = r["fault_guard"]
    expect("fault_guard.installed", g["installed"], True)
    expect("fault_guard.check", g["check"], "#UD")
    if selftest:
        probes = {t["instruction"]: t for t in g["selftest"]}
        expect("UD2 faulted", probes["UD2"]["faulted"], True)
        expect("UD2 vector", probes["UD2"]["vector"], "#UD")
        expect("RDPMC ran", probes["RDPMC ECX=0"]["ran"], True)
        expect("RDPMC faulted (no PMU under TCG)", probes["RDPMC ECX=0"]["faulted"], True)
        expect("RDPMC vector", probes["RDPMC ECX=0"]["vector"], "#UD")
        rd = probes["RDMSR 0x400000FF (architecturally reserved)"]
        expect("reserved RDMSR reads 0 under TCG", (rd["faulted"], rd["vector"]), (False, None))
    expect("result.exit_status", r["result"]["exit_status"], 0)

    if failures:
        print(f"{path}: {len(failures)} mismatch(es) for -cpu {cpu}:")
        for f in failures:
            print("  " + f)
        return 1
    print(f"ok   {path}: every field matches QEMU's {cpu} model (-smp {smp})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

/* SPDX-License-Identifier: MIT */
/*
 * CPU and PMU identification from CPUID, through the arch interface (so it
 * runs the same against the hardware and the simulated backend).
 */
#ifndef PMU_CPU_DETECT_H
#define PMU_CPU_DETECT_H

#include "arch/arch.h"
#include "pmu/cpu-info.h"

struct bt_detect_options {
	/* Busy-waits this many microseconds (the firmware's Stall()); used to
	 * calibrate the TSC when CPUID does not give its frequency. May be
	 * NULL: the frequency then stays unknown. */
	void (*stall_us)(uint64_t us, void *ctx);
	void *stall_ctx;
	/* AMD's four legacy counters have no CPUID bit. On bare metal they are
	 * architectural; under a hypervisor they may well be absent (QEMU TCG,
	 * KVM without a vPMU), so they are only assumed there if this is set. */
	bool assume_amd_legacy_pmu;
};

/*
 * Fills *ret from CPUID. MSRs are read only where CPUID says they exist:
 * IA32_PERF_CAPABILITIES when CPUID.01H:ECX[15] (PDCM) is set and there is
 * a PMU, and the microcode revision (IA32_BIOS_SIGN_ID / AMD PATCH_LEVEL),
 * which every Intel P6+ and AMD64 CPU has. A faulting MSR read is recorded
 * in the result's notes, never fatal. logical_cpus is left for the platform.
 */
void bt_cpu_detect(struct bt_arch *a, const struct bt_detect_options *opt,
		   struct bt_cpu_info *ret);

/* Two CPUs are the same kind of core (one model, one set of counters): same
 * hybrid core type and native model ID (CPUID.1AH:EAX[31:24], [23:0]). */
bool bt_cpu_same_core_kind(const struct bt_cpu_info *a, const struct bt_cpu_info *b);

/* "Intel", "AMD" or "unknown". */
const char *bt_vendor_name(enum bt_vendor v);
/* "P-core", "E-core" or NULL when not hybrid. */
const char *bt_core_type_name(enum bt_core_type t);
/* "CPUID.15H", "calibrated", ... */
const char *bt_tsc_source_name(enum bt_tsc_source s);
/* "Intel architectural perfmon", "AMD PerfMonV2", ..., "none". */
const char *bt_pmu_kind_name(enum bt_pmu_kind k);

#endif

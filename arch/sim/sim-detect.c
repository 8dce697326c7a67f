/* SPDX-License-Identifier: MIT */
/*
 * The driver's own CPU detection (pmu/pmu-caps.c), run against the simulated
 * CPU. Kept out of the sim's register model, which must not share the
 * driver's register facts (see arch/sim/sim-regs.h).
 */
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "arch/sim/sim.h"

void bt_sim_detect_caps(struct bt_sim *sim, struct bt_pmu_caps *ret)
{
	struct bt_cpuid_leaves l;
	bt_cpuid_collect(&sim->arch, &l);
	struct bt_pmu_caps caps;
	bt_pmu_caps_from_cpuid(&l, &caps);
	if (bt_cpuid_vendor(&l) == BT_VENDOR_INTEL && bt_cpuid_has_pdcm(&l)) {
		uint64_t v;
		if (bt_rdmsr(&sim->arch, MSR_IA32_PERF_CAPABILITIES, &v) == BT_OK)
			bt_pmu_caps_apply_perf_capabilities(&caps, v);
	}
	*ret = caps;
}

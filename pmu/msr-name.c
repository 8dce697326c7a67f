/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "pmu/msr.h"
#include "base/array.h"

const char *bt_msr_name(uint32_t msr, char *buf, size_t len)
{
	struct { uint32_t base, count; const char *name; } ranges[] = {
		{ MSR_IA32_PMC0, 8, "IA32_PMC" },
		{ MSR_IA32_A_PMC0, 8, "IA32_A_PMC" },
		{ MSR_IA32_PERFEVTSEL0, 8, "IA32_PERFEVTSEL" },
		{ MSR_IA32_FIXED_CTR0, 16, "IA32_FIXED_CTR" },
		{ MSR_AMD_PERFEVTSEL0, 4, "PerfEvtSel" },
		{ MSR_AMD_PERFCTR0, 4, "PerfCtr" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(ranges); i++)
		if (msr >= ranges[i].base && msr < ranges[i].base + ranges[i].count) {
			snprintf(buf, len, "%s%u", ranges[i].name, msr - ranges[i].base);
			return buf;
		}
	if (msr >= MSR_IA32_PMC_V6_GP0_CTR &&
	    msr < MSR_IA32_PMC_V6_GP0_CTR + MSR_IA32_PMC_V6_STEP * 32 &&
	    (msr - MSR_IA32_PMC_V6_GP0_CTR) % MSR_IA32_PMC_V6_STEP < 2) {
		uint32_t off = msr - MSR_IA32_PMC_V6_GP0_CTR;
		snprintf(buf, len, "IA32_PMC_GP%u_%s", off / MSR_IA32_PMC_V6_STEP,
			 off % MSR_IA32_PMC_V6_STEP ? "CFG_A" : "CTR");
		return buf;
	}
	if (msr >= MSR_IA32_PMC_V6_FX0_CTR &&
	    msr < MSR_IA32_PMC_V6_FX0_CTR + MSR_IA32_PMC_V6_STEP * 16 &&
	    (msr - MSR_IA32_PMC_V6_FX0_CTR) % MSR_IA32_PMC_V6_STEP == 0) {
		snprintf(buf, len, "IA32_PMC_FX%u_CTR",
			 (msr - MSR_IA32_PMC_V6_FX0_CTR) / MSR_IA32_PMC_V6_STEP);
		return buf;
	}
	if (msr >= MSR_AMD_CORE_EVTSEL0 && msr < MSR_AMD_CORE_EVTSEL0 + 12) {
		snprintf(buf, len, "%s%u", (msr - MSR_AMD_CORE_EVTSEL0) % 2 ? "PerfCtr" : "PerfEvtSel",
			 (msr - MSR_AMD_CORE_EVTSEL0) / 2);
		return buf;
	}
	const char *n = NULL;
	switch (msr) {
	case MSR_IA32_PERF_CAPABILITIES: n = "IA32_PERF_CAPABILITIES"; break;
	case MSR_IA32_FIXED_CTR_CTRL: n = "IA32_FIXED_CTR_CTRL"; break;
	case MSR_IA32_PERF_GLOBAL_STATUS: n = "IA32_PERF_GLOBAL_STATUS"; break;
	case MSR_IA32_PERF_GLOBAL_CTRL: n = "IA32_PERF_GLOBAL_CTRL"; break;
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL: n = "IA32_PERF_GLOBAL_OVF_CTRL"; break;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET: n = "IA32_PERF_GLOBAL_STATUS_SET"; break;
	case MSR_PERF_METRICS: n = "MSR_PERF_METRICS"; break;
	case MSR_OFFCORE_RSP_0: n = "MSR_OFFCORE_RSP_0"; break;
	case MSR_OFFCORE_RSP_1: n = "MSR_OFFCORE_RSP_1"; break;
	case MSR_PEBS_LD_LAT: n = "MSR_PEBS_LD_LAT"; break;
	case MSR_PEBS_FRONTEND: n = "MSR_PEBS_FRONTEND"; break;
	case MSR_SMI_COUNT: n = "MSR_SMI_COUNT"; break;
	case MSR_IA32_DEBUGCTL: n = "IA32_DEBUGCTL"; break;
	case MSR_IA32_MPERF: n = "IA32_MPERF"; break;
	case MSR_IA32_APERF: n = "IA32_APERF"; break;
	case MSR_AMD_PERF_GLOBAL_STATUS: n = "PerfCntrGlobalStatus"; break;
	case MSR_AMD_PERF_GLOBAL_CTL: n = "PerfCntrGlobalCtl"; break;
	case MSR_AMD_PERF_GLOBAL_STATUS_CLR: n = "PerfCntrGlobalStatusClr"; break;
	case MSR_AMD_PERF_GLOBAL_STATUS_SET: n = "PerfCntrGlobalStatusSet"; break;
	case MSR_IA32_PEBS_ENABLE: n = "IA32_PEBS_ENABLE"; break;
	case MSR_IA32_MISC_ENABLE: n = "IA32_MISC_ENABLE"; break;
	case MSR_IA32_PERF_GLOBAL_INUSE: n = "IA32_PERF_GLOBAL_INUSE"; break;
	}
	/* Callers print the address next to the name: an unnamed MSR is just
	 * "MSR", not its address twice. */
	snprintf(buf, len, "%s", n ? n : "MSR");
	return buf;
}

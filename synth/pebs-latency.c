/* SPDX-License-Identifier: MIT */
/* Retire latencies of the simulated PMU's timed-PEBS records: wl-costs.h. */
#include "synth/mem-hierarchy.h"
#include "synth/wl-costs.h"

/* By Intel's event encodings (the perfmon event files) of the precise events the TMA 5 formulas
 * weigh with a retire latency (the perfmon event files): 0xC5
 * BR_MISP_RETIRED.*, 0xC6 FRONTEND_RETIRED.*, 0xD0 MEM_INST_RETIRED.*,
 * 0xD1 MEM_LOAD_RETIRED.*, 0xD2 MEM_LOAD_L3_HIT_RETIRED.*, 0xD3
 * MEM_LOAD_L3_MISS_RETIRED.*; anything else retires in about a cycle. */
/* FRONTEND_RETIRED.* (0xC6) by MSR_PEBS_FRONTEND's EVTSEL [7:0] (SDM table
 * "FrontEnd_Retired Sub-Event Encodings"; the perfmon files' MSRValue):
 * 0x01 ANY_DSB_MISS, 0x11 DSB_MISS, 0x12 L1I_MISS, 0x13 L2_MISS, 0x14
 * ITLB_MISS, 0x15 STLB_MISS; the rest (latency and bubble events, MS
 * flows, unknown branches) about the cost of an L1I miss. */
static double frontend_cost(uint64_t frontend)
{
	switch (frontend & 0xFF) {
	case 0x01:
	case 0x11:
		return BT_WL_CYC_DSB_MISS;
	case 0x13:
		return BT_WL_CYC_CODE_L2_MISS;
	case 0x14:
		return BT_WL_CYC_ITLB_MISS;
	case 0x15:
		return BT_WL_CYC_CODE_WALK;
	default:
		return BT_WL_CYC_ICACHE_MISS;
	}
}

/* A load served by `level`: the simulated CPU's latency (ctx, the run's
 * hierarchy), else wl-costs.h's. */
static double load_cost(const struct bt_mem_hier *h, int level, double dflt)
{
	return h && h->lat[level] > 0 ? h->lat[level] : dflt;
}

static double cost(unsigned code, unsigned umask, uint64_t frontend, const struct bt_mem_hier *h)
{
	switch (code) {
	case 0xC5:
		return BT_WL_CYC_MISPREDICT;
	case 0xC6:
		return frontend_cost(frontend);
	case 0xD0:
		if ((umask & 0xF0) == 0x20)
			return BT_WL_CYC_LOCK;        /* LOCK_LOADS */
		if ((umask & 0xF0) == 0x40)
			return BT_WL_CYC_SPLIT;       /* SPLIT_LOADS / STORES */
		if ((umask & 0xF0) == 0x10)
			return BT_WL_CYC_STLB_MISS;   /* STLB_MISS_* (0x11 loads, 0x12 stores) */
		if ((umask & 0xF0) == 0x00 && (umask & 0x08))
			return BT_WL_CYC_STLB_HIT;    /* STLB_HIT_* (0x09 loads, 0x0A stores) */
		return 4;                             /* ALL_LOADS, ALL_STORES and others */
	case 0xD1:
		if (umask & 0x38)                     /* L3_MISS, FB/L2/L3 miss kinds */
			return load_cost(h, BT_MEM_DRAM, BT_WL_CYC_DRAM);
		if (umask & 0x04)
			return load_cost(h, BT_MEM_L3, BT_WL_CYC_L3_HIT);
		if (umask & 0x02)
			return load_cost(h, BT_MEM_L2, BT_WL_CYC_L2_HIT);
		return load_cost(h, BT_MEM_L1, 5);    /* L1_HIT */
	case 0xD2:
		/* umask 0x04: XSNP_HITM (SKL, ICL, LNL) or XSNP_FWD (SPR, MTL,
		 * GNR: HitM responses): a cross-core transfer of a modified
		 * line. Lunar / Arrow Lake's XSNP_FWD (umask 0x10) is a clean
		 * line forwarded (workload-counts.c counts it 0), an L3 hit's
		 * cost like XSNP_MISS / NO_FWD / NONE */
		if (umask & 0x04)
			return BT_WL_CYC_HITM;
		return load_cost(h, BT_MEM_L3, BT_WL_CYC_L3_HIT);
	case 0xD3:
		return load_cost(h, BT_MEM_DRAM, BT_WL_CYC_DRAM);
	default:
		return 1;
	}
}

uint32_t bt_synth_pebs_latency(void *ctx, unsigned counter, uint64_t evtsel, uint64_t frontend,
			       uint64_t n)
{
	(void)counter;
	double c = cost((unsigned)(evtsel & 0xFF), (unsigned)((evtsel >> 8) & 0xFF), frontend,
			(const struct bt_mem_hier *)ctx);
	/* a deterministic spread of +-25 % (a multiplicative hash of n) */
	uint64_t h = (n + 1) * 0x9E3779B97F4A7C15ull;
	double f = 0.75 + 0.5 * (double)(h >> 11) / (double)(1ull << 53);
	double v = c * f;
	return v < 1 ? 1 : (uint32_t)(v + 0.5);
}

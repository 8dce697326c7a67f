/* SPDX-License-Identifier: MIT */
/*
 * Which simulated model CPUs enumerate timed PEBS (IA32_PERF_CAPABILITIES
 * bit 17, PEBS_TIMING_INFO; Linux "perf/x86: Support Retire Latency"): the
 * P-cores whose Top-Down models use retire latencies (Granite Rapids,
 * Meteor Lake, Lunar Lake, Arrow Lake), and none of the others, E-cores of
 * the same parts included. Read through RDMSR 0x345 as a driver would.
 */
#include "arch/sim/sim.h"
#include "base/array.h"
#include "synth/count-sources.h"
#include "synth/wl-costs.h"
#include "tests/unit/lib/test.h"

static int timing(const char *model)
{
	struct bt_sim_config cfg;
	static struct bt_sim sim;
	uint64_t v = 0;
	if (!bt_sim_config_for_model(model, &cfg))
		return -1;
	if (bt_sim_init(&sim, &cfg) != BT_OK)
		return -1;
	bt_status st = bt_rdmsr(&sim.arch, 0x345, &v);
	bt_sim_free(&sim);
	return st == BT_OK ? (int)((v >> 17) & 1) : -1;
}

TEST(timed_pebs_on_the_p_cores_of_the_retire_latency_models)
{
	const char *yes[] = { "GNR", "MTL-RWC", "LNL-LNC", "ARL-LNC" };
	const char *no[] = { "SPR", "EMR", "ADL-GLC", "MTL-CMT", "LNL-SKT", "ARL-SKT", "SKL", "ICX" };
	for (unsigned k = 0; k < BT_ARRAY_SIZE(yes); k++)
		CHECK_MSG(timing(yes[k]) == 1, "%s: PERF_CAPABILITIES[17] %d", yes[k], timing(yes[k]));
	for (unsigned k = 0; k < BT_ARRAY_SIZE(no); k++)
		CHECK_MSG(timing(no[k]) == 0, "%s: PERF_CAPABILITIES[17] %d", no[k], timing(no[k]));
}

/*
 * The latencies the simulated PMU's records carry for the synthesized
 * workloads (synth/pebs-latency.c): within what current Intel cores take
 * (a mispredict 10-30 cycles to retire behind its predecessor, an L2 hit
 * 10-20, an L3 hit 40-150, DRAM 150-400), spread over the records, never 0.
 */
static void range_fe(uint64_t evtsel, uint64_t frontend, double lo, double hi, const char *what)
{
	double sum = 0, mn = 1e9, mx = 0;
	for (uint64_t n = 0; n < 1000; n++) {
		double v = bt_synth_pebs_latency(NULL, 0, evtsel, frontend, n);
		sum += v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
	}
	CHECK_MSG(sum / 1000 >= lo && sum / 1000 <= hi, "%s: mean %.1f outside [%g, %g]", what,
		  sum / 1000, lo, hi);
	CHECK_MSG(mn >= 1 && mx > mn, "%s: min %.0f max %.0f", what, mn, mx);
}

static void range(uint64_t evtsel, double lo, double hi, const char *what)
{
	range_fe(evtsel, 0, lo, hi, what);
}

TEST(record_latencies_are_plausible_per_event)
{
	/* FRONTEND_RETIRED (0xC6 umask 0x03) by MSR_PEBS_FRONTEND's EVTSEL, as
	 * Intel's event files give it ("MSRValue"): an L1I miss 10-40 cycles,
	 * a code L2 miss 30-150, an ITLB miss 10-40, a code page walk 40-200 */
	range_fe(0xC6 | 0x03 << 8, 0x12, 10, 40, "FRONTEND_RETIRED.L1I_MISS");
	range_fe(0xC6 | 0x03 << 8, 0x13, 30, 150, "FRONTEND_RETIRED.L2_MISS");
	range_fe(0xC6 | 0x03 << 8, 0x14, 10, 40, "FRONTEND_RETIRED.ITLB_MISS");
	range_fe(0xC6 | 0x03 << 8, 0x15, 40, 200, "FRONTEND_RETIRED.STLB_MISS");
	range(0xC5 | 0x00 << 8, 10, 30, "BR_MISP_RETIRED");
	range(0xD1 | 0x02 << 8, 10, 20, "MEM_LOAD_RETIRED.L2_HIT");
	range(0xD1 | 0x04 << 8, 40, 150, "MEM_LOAD_RETIRED.L3_HIT");
	range(0xD3 | 0x01 << 8, 150, 400, "MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM");
	/* The memory events the workload model drives (Intel's encodings):
	 * an STLB hit 7-12 cycles (Intel's formulas weigh it with 7 or 9), a
	 * page walk 20-100, a load of a line another core modified tens of ns,
	 * 60-400 cycles at the simulated 3 GHz (0xD2 umask 0x04: XSNP_HITM on
	 * SKL/ICL/LNL, XSNP_FWD = HitM on SPR/MTL/GNR), a snoop that found no
	 * modified line an L3 hit's 40-150 (0x10: LNL's XSNP_FWD, a clean line
	 * forwarded, Intel's lunarlake event file). */
	range(0xD0 | 0x09 << 8, 7, 12, "MEM_INST_RETIRED.STLB_HIT_LOADS");
	range(0xD0 | 0x11 << 8, 20, 100, "MEM_INST_RETIRED.STLB_MISS_LOADS");
	range(0xD2 | 0x04 << 8, 60, 400, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM / XSNP_FWD");
	range(0xD2 | 0x10 << 8, 40, 150, "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD (LNL: clean)");
	range(0xD2 | 0x01 << 8, 40, 150, "MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS");
	range(0xD2 | 0x02 << 8, 40, 150, "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD");
}

/* SPDX-License-Identifier: MIT */
/*
 * Which simulated model CPUs enumerate timed PEBS (IA32_PERF_CAPABILITIES
 * bit 17, PEBS_TIMING_INFO; Linux "perf/x86: Support Retire Latency"): the
 * P-cores whose Top-Down models use retire latencies (Granite Rapids,
 * Meteor Lake, Lunar Lake, Arrow Lake), and none of the others, E-cores of
 * the same parts included. Read through RDMSR 0x345 as a driver would.
 */
#include "arch/sim/sim.h"
#include "synth/count-sources.h"
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
	for (unsigned k = 0; k < sizeof(yes) / sizeof(yes[0]); k++)
		CHECK_MSG(timing(yes[k]) == 1, "%s: PERF_CAPABILITIES[17] %d", yes[k], timing(yes[k]));
	for (unsigned k = 0; k < sizeof(no) / sizeof(no[0]); k++)
		CHECK_MSG(timing(no[k]) == 0, "%s: PERF_CAPABILITIES[17] %d", no[k], timing(no[k]));
}

/* SPDX-License-Identifier: MIT */
/*
 * Counts of a body whose architectural counts are known exactly (sim.h,
 * struct bt_sim_known), as count-source entries the simulated PMU counts
 * by encoding. Encodings: Intel SDM vol. 3B Table 20-1 (architectural
 * events: 0x3C/0x00 UnHalted Core Cycles, 0xC0/0x00 Instructions Retired,
 * 0xC4/0x00 Branch Instructions Retired) and the fixed counters (20.2.2:
 * 0 INST_RETIRED.ANY, 1 CPU_CLK_UNHALTED.THREAD, 2 REF_TSC, 3
 * TOPDOWN.SLOTS); 0xC4/0x01 BR_INST_RETIRED.CONDITIONAL from the Nehalem
 * to Skylake event lists (not on later cores: see below); AMD APM vol. 2 §13.2 / family 17h+ PPRs: 0x76
 * cycles not in halt, 0xC0 retired instructions, 0xC2 retired branches.
 */
#include <string.h>

#include "synth/count-sources.h"

static struct bt_event pmc(uint16_t code, uint8_t umask, int fixed)
{
	struct bt_event e;
	memset(&e, 0, sizeof(e));
	e.source = BT_SRC_PMC;
	e.code = code;
	e.umask = umask;
	e.fixed = (int8_t)fixed;
	return e;
}

/* 0xC4/0x01 is BR_INST_RETIRED.CONDITIONAL from Nehalem to Skylake only:
 * Ice Lake and later big cores use it for COND_TAKEN (COND is 0x11), the
 * Atom cores for nothing of the kind (COND is 0x7E), per the vendors' event
 * lists; Core 2 has no such umask. */
static bool c4_01_is_conditional(enum bt_sim_family f)
{
	return f == BT_SIM_FAM_NHM || f == BT_SIM_FAM_WSM_BDW || f == BT_SIM_FAM_SKL;
}

size_t bt_sim_known_counts(const struct bt_sim_config *cfg, const struct bt_sim_known *q,
			   struct bt_sim_count *out)
{
	enum bt_vendor vendor = cfg->vendor;
	size_t n = 0;
	uint64_t slots = q->cycles * (q->width ? q->width : 4);
#define ADD(e_, cnt) do { out[n].ev = (e_); out[n].count = (cnt); n++; } while (0)
	if (vendor == BT_VENDOR_INTEL) {
		/* Fixed counters: no event select of their own (code 0 is never
		 * programmed on a general counter). */
		ADD(pmc(0, 0, 0), q->instructions);
		ADD(pmc(0, 0, 1), q->cycles);
		ADD(pmc(0, 0, 2), q->cycles);
		ADD(pmc(0, 0, 3), slots);
		for (int i = 4; i < 8; i++)
			ADD(pmc(0, 0, i), slots / 8);
		ADD(pmc(0xC0, 0x00, BT_EV_NO_FIXED), q->instructions);
		ADD(pmc(0x3C, 0x00, BT_EV_NO_FIXED), q->cycles);
		ADD(pmc(0xC4, 0x00, BT_EV_NO_FIXED), q->branches);
		if (c4_01_is_conditional(cfg->family))
			ADD(pmc(0xC4, 0x01, BT_EV_NO_FIXED), q->cond);
		for (int f = 0; f < 8; f++) {
			struct bt_event e;
			memset(&e, 0, sizeof(e));
			e.source = BT_SRC_PERF_METRICS;
			e.pm_field = (uint8_t)f;
			e.fixed = BT_EV_NO_FIXED;
			/* floor(SLOTS * byte / 255): what the register's byte means */
			ADD(e, slots * q->pm[f] / 255);
		}
	} else {
		ADD(pmc(0xC0, 0x00, BT_EV_NO_FIXED), q->instructions);
		ADD(pmc(0x76, 0x00, BT_EV_NO_FIXED), q->cycles);
		ADD(pmc(0xC2, 0x00, BT_EV_NO_FIXED), q->branches);
	}
	struct bt_event tsc;
	memset(&tsc, 0, sizeof(tsc));
	tsc.source = BT_SRC_TSC;
	tsc.fixed = BT_EV_NO_FIXED;
	ADD(tsc, q->cycles);
#undef ADD
	return n;
}

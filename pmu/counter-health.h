/* SPDX-License-Identifier: MIT */
/*
 * The counter health check before a counted run: every general counter
 * and fixed counter 0 count instructions retired (SDM vol. 3B Table 20-1
 * 0xC0/0x00 = Table 20-2 INST_RETIRED.ANY; APM vol. 2 sec. 13.2 0xC0) over
 * the same known-count loop in one window, and must agree within a stated
 * tolerance. A counter outside it (stuck, dead, double-counting) FAILs, is
 * named, and its general counter is left out of the counter plan
 * (bt_counter_health_usable_mask: the planner takes a gp_mask with gaps).
 *
 * This file is the data and the decision (pure: no register access, unit
 * tested); validate/health.c measures, report/ prints and writes it.
 */
#ifndef PMU_COUNTER_HEALTH_H
#define PMU_COUNTER_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/cpu-info.h"

/* The tolerance: a counter agrees when it is within this many parts per
 * million of the consensus. Counts of one window, calibrated with the
 * empty kernel, agree exactly on a working PMU (conf:gp-agree asks
 * exactly); 0.1 % leaves room for a window an interrupt-free run still
 * perturbs by a few instructions without letting a stuck (0), doubled
 * (x2) or partly counting counter through. */
#define BT_HEALTH_TOLERANCE_PPM 1000u

enum bt_health_state {
	BT_HEALTH_NOT_RUN = 0,     /* see why */
	BT_HEALTH_RAN,
};

struct bt_counter_health {
	enum bt_health_state state;
	/* Where and how long: the logical CPU whose counters were checked, and
	 * the check's TSC ticks on the CPU that waited for it (0: not timed). */
	uint32_t cpu;
	uint64_t elapsed_ticks;
	char why[200];             /* NOT_RUN: why; RAN: "" */
	const char *kernel;        /* the loop counted */
	uint64_t n;                /* its size */
	uint64_t declared;         /* instructions it declares at n (0: unknown) */
	unsigned runs;             /* windows per count (medians) */
	uint32_t tolerance_ppm;
	/* Inputs: the counters measured and their calibrated median counts. */
	uint32_t gp_mask;
	uint64_t gp[BT_PMU_MAX_GP];
	bool has_fixed0;
	uint64_t fixed0;
	/* Fixed counter 1 (CPU_CLK_UNHALTED.THREAD, SDM Table 20-2) against its
	 * general twin 0x3C/0x00 (UnHalted Core Cycles, Table 20-1) on general
	 * counter cycles_gp, in a second window of the same loop. */
	bool has_fixed1;
	uint64_t fixed1, cycles;
	unsigned cycles_gp;
	/* Fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC) against the TSC ticks of
	 * its (uncalibrated) window: the TSC's rate while unhalted (SDM Table
	 * 20-2), within 2 % as conf:fixed2-vs-tsc asks. */
	bool has_fixed2;
	uint64_t fixed2, tsc;
	/* Fixed counter 3 (TOPDOWN.SLOTS, SDM 20.3.9.3), in the cycles window:
	 * issue slots per core cycle (the twin's) between 1 and
	 * BT_HEALTH_MAX_WIDTH; the Top-Down fractions all divide by it. */
	bool has_fixed3;
	uint64_t fixed3;
	/* The decision (bt_counter_health_judge). */
	uint64_t consensus;        /* the count most counters agree on; 0: none */
	uint32_t gp_fail;          /* general counters that disagree */
	bool fixed0_fail, fixed1_fail, fixed2_fail, fixed3_fail;
	char gp_why[BT_PMU_MAX_GP][80];
	char fixed0_why[80], fixed1_why[80], fixed2_why[80], fixed3_why[80];
};

/* REF_TSC / TSC ticks of the window within 2 %. */
#define BT_HEALTH_REF_TSC_TOLERANCE_PPM 20000u
/* The widest x86 core's issue slots per cycle (Lion Cove: 8). */
#define BT_HEALTH_MAX_WIDTH 8u

/* Fixed counter 1 agrees with its twin within this (cycles vary from run
 * to run; conf:fixed1-vs-gp-cycles asks the same). */
#define BT_HEALTH_CYCLES_TOLERANCE_PPM 10000u
/* The consensus must be within this of the loop's declared instructions:
 * counters that all count the same wrong number (an encoding every general
 * counter doubles, no fixed counter to disagree) fail together. Loose: the
 * declared count is exact, its calibration on hardware nearly so. */
#define BT_HEALTH_DECLARED_TOLERANCE_PPM 50000u

/* Decides from the inputs (gp_mask, gp[], has_fixed0, fixed0, declared,
 * tolerance_ppm; 0 = BT_HEALTH_TOLERANCE_PPM): the consensus is the count
 * the largest set of counters agrees with (within the tolerance), ties
 * going to the set nearest the kernel's declared count; a counter outside
 * it FAILs, and every counter FAILs when the consensus is 0 (nothing
 * counted), when no two counters agree and none matches the declared
 * count, or when the consensus is not within
 * BT_HEALTH_DECLARED_TOLERANCE_PPM of a declared count. Fixed counter 1
 * (has_fixed1) FAILs outside BT_HEALTH_CYCLES_TOLERANCE_PPM of its twin
 * (cycles) or when its twin counter failed. Sets state = BT_HEALTH_RAN. */
void bt_counter_health_judge(struct bt_counter_health *h);

/* The general counters a plan may use: caps_gp_mask less the failed ones
 * (all of caps_gp_mask when the check did not run). */
uint32_t bt_counter_health_usable_mask(const struct bt_counter_health *h, uint32_t caps_gp_mask);

/* A fixed counter failed: every group carries the fixed counters, so a
 * tree measured with it would be wrong (no plan can leave it out). */
bool bt_counter_health_fixed_failed(const struct bt_counter_health *h);

/* "general counter 1 (stuck: 0 of 2000001), fixed counter 0 (...)" — the
 * failed counters, "" when none. */
void bt_counter_health_failed_list(const struct bt_counter_health *h, char *buf, size_t len);

#endif

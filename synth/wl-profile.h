/* SPDX-License-Identifier: MIT */
/*
 * A workload's character, as data: what the simulated PMU counts when it
 * "runs" the workload (synth/workload-counts.c). It is a MODEL written by
 * hand from the workload's code and the Top-Down paper's case studies, not a
 * measurement: a simulated tree shows what the model says, never what a CPU
 * did. Shared by workloads/ (each workload declares its profile next to its
 * code) and synth/ (which derives every event from it): a plain struct with
 * no behaviour.
 *
 * Architectural counts follow from the parameters: instructions per run =
 * insts_per_unit x (product of the parameters named in unit_params, or 1).
 * Where the cycles go is a split of the issue slots (the Top-Down level-1
 * and level-2 fractions), then shares inside the memory and core parts.
 * Rates are per instruction (branches, loads, stores) or per event of the
 * level above (mispredicts per branch, misses per load).
 */
#ifndef SYNTH_WL_PROFILE_H
#define SYNTH_WL_PROFILE_H

struct bt_wl_profile {
	/* Architectural counts per run. */
	double insts_per_unit;
	const char *unit_params[2];  /* parameter names multiplied together; NULL: 1 */
	double uops_per_inst;        /* retired uops per instruction (>= 1) */

	/* Issue-slot split (fractions of width x cycles; the rest is retiring). */
	double fe_latency, fe_bandwidth;     /* Frontend_Bound = their sum */
	double mispredict, machine_clear;    /* Bad_Speculation = their sum */
	double memory, core;                 /* Backend_Bound = their sum */
	double heavy;                        /* of the slots: retiring heavy uops */

	/* Inside the memory part (shares that sum to 1; the rest is L1). */
	double mem_l2, mem_l3, mem_dram, mem_store;
	double mem_bandwidth;        /* of L3/DRAM time: bandwidth- (vs latency-) bound */
	/* Inside the core part: the divider's share (the rest is port use). */
	double core_divider;
	/* Inside the frontend latency part: icache and itlb shares. */
	double fe_icache, fe_itlb;
	/* Of the heavy slots, the microcode sequencer's share; of those, assists. */
	double ms_share, assist_share;
	/* Of the memory part: store-forward blocks and 4K aliasing (L1 causes). */
	double l1_store_fwd, l1_4k_alias;
	/* Of the machine clears: memory ordering (the rest: other nukes). */
	double clear_memory_ordering;
	/* Of the store part: false sharing. */
	double store_false_sharing;

	/* Rates per instruction. */
	double branches, loads, stores;
	double fp_ops;               /* FP arithmetic instructions (scalar) */
};

#endif

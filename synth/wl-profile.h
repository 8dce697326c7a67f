/* SPDX-License-Identifier: MIT */
/*
 * A workload's character, as data: what the simulated PMU counts when it
 * "runs" the workload (synth/workload-counts.c). It is a MODEL written by
 * hand from the workload's code and the Top-Down paper's case studies, not a
 * measurement: a simulated tree shows what the model says, never what a CPU
 * did. The built-in workloads' profiles are in synth/workload-profiles.c,
 * keyed by workload name: workloads/ knows nothing of the simulator.
 *
 * Architectural counts follow from the parameters: instructions per run =
 * insts_per_unit x (product of the parameters named in unit_params, or 1),
 * so they scale as the workload's loop nest does (multiply1's i-j-k nest
 * names n three times: n^3).
 * Where the cycles go is a split of the issue slots (the Top-Down level-1
 * and level-2 fractions), then shares inside the memory and core parts.
 * Rates are per instruction (branches, loads, stores) or per event of the
 * level above (mispredicts per branch, misses per load).
 */
#ifndef SYNTH_WL_PROFILE_H
#define SYNTH_WL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bt_mem_hier;

struct bt_wl_profile {
	/* Architectural counts per run. */
	double insts_per_unit;
	const char *unit_params[3];  /* parameter names multiplied together; NULL: 1 */
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
	/* Of the store part: false sharing (stores whose RFO finds the line
	 * modified in another core: OCR/OFFCORE_RESPONSE DEMAND_RFO SNOOP_HITM). */
	double store_false_sharing;
	/* Of the L3 part: loads served by a cross-core snoop of a line another
	 * core modified (HITM: MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM / XSNP_FWD). */
	double l3_snoop_hitm;

	/* Data-TLB misses of loads, per instruction. Either given, or derived by
	 * bt_wl_profile_resolve from a strided walk: tlb_walk_loads loads per
	 * instruction step through memory tlb_stride_bytes x (parameter
	 * tlb_stride_param) apart, over as many pages as that parameter's value
	 * (multiply1's column walk of B: one load of B per 6 instructions, a row
	 * of n doubles between them, n rows). */
	double stlb_hit_loads, stlb_miss_loads;
	const char *tlb_stride_param;
	double tlb_stride_bytes, tlb_walk_loads;

	/* Rates per instruction. */
	double branches, loads, stores;
	double fp_ops;               /* FP arithmetic instructions (scalar) */

	/* A branch whose direction is a random draw, taken with probability
	 * taken_param/100 (NULL: none): data_branches of them per instruction.
	 * The slot split above is the workload's with every such branch
	 * predicted; bt_wl_profile_resolve adds their mispredicts. */
	const char *taken_param;
	double data_branches;

	/* A dependent chain of loads (a pointer chase): chase_loads loads per
	 * instruction, each address the value the one before loaded, over a
	 * working set of chase_size_param bytes (NULL: none). The slot split
	 * above is then not the workload's: bt_wl_profile_resolve derives it
	 * from where the working set lands in the simulated CPU's caches and
	 * each level's load-to-use latency (synth/mem-hierarchy.h). */
	const char *chase_size_param;
	double chase_loads;

	/* Set by bt_wl_profile_resolve from the memory hierarchy (0: the
	 * wl-costs.h constants): the load-to-use cycles of an L1, L2, L3 and
	 * DRAM hit, by which stall cycles become hit counts; and, for a chase,
	 * the share of the loads each level serves (ld_levels: the hit counts
	 * are these shares of the loads, not stall cycles over a cost). */
	double lat[4];
	double ld_level[4];
	bool ld_levels;
};

/* The profile of the built-in workload named `workload`, or NULL (none:
 * generated counts). */
const struct bt_wl_profile *bt_wl_profile_find(const char *workload);
/* The k-th workload name with a profile, or NULL past the last (for tests). */
const char *bt_wl_profile_name(size_t k);

/* The value of the workload parameter `name` of one configured run into
 * *ret; false if the workload has no such parameter. */
typedef bool bt_wl_param_fn(const void *ctx, const char *name, uint64_t *ret);
/* Instructions one run retires by profile p: insts_per_unit x the values
 * of the parameters named in unit_params (read through param); 0 for a
 * NULL p. */
double bt_wl_profile_insts(const struct bt_wl_profile *p, bt_wl_param_fn *param, const void *ctx);

/* The profile of one configured run of p on a core `width` slots wide into
 * *ret: p itself, except that the mispredicts of its random branches (taken
 * with probability t = taken_param/100) are added. The best any predictor
 * does on independent draws is to predict the likelier direction, which
 * mispredicts min(t, 1 - t) of them: none at t = 0 or 1, half at t = 0.5.
 * Each costs BT_WL_CYC_MISPREDICT (wl-costs.h); the cycles grow by them and every
 * other share of the slots shrinks in proportion, so the split still sums
 * to 1. A strided walk (tlb_stride_param) sets stlb_hit_loads and
 * stlb_miss_loads: once the stride reaches a page (BT_WL_PAGE_BYTES) every
 * load of the walk is on a new page and misses the first-level DTLB; the
 * walk's pages (one per step, the parameter's value of them) are STLB hits
 * while they fit its BT_WL_STLB_ENTRIES entries and page walks beyond (an
 * LRU set cycled through in order misses on every access once it is larger).
 * Below a page several loads share a page: no misses modelled. */
/* With a memory hierarchy h (NULL: none, the wl-costs.h costs) its
 * latencies become the run's costs (lat[]), and a chase profile
 * (chase_size_param) gets its slot split from them: each of its loads waits
 * for the one before, so a step costs the latency of the level its load is
 * served by (bt_mem_hier_chase: where a working set of that many bytes
 * lands), cycles per instruction = chase_loads x the mean latency; the
 * retiring share is then uops / (width x cycles), the profile's frontend,
 * bad-speculation and core shares stay and the memory part is the rest,
 * split between the levels by the cycles their loads wait (each level's
 * share of the loads x its latency). Without h a chase runs on the
 * default hierarchy (bt_mem_hier_default) and other profiles keep the
 * wl-costs.h costs. */
void bt_wl_profile_resolve(const struct bt_wl_profile *p, bt_wl_param_fn *param, const void *ctx,
			   double width, const struct bt_mem_hier *h, struct bt_wl_profile *ret);

#endif

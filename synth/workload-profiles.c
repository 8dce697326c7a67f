/* SPDX-License-Identifier: MIT */
/*
 * The character of each built-in workload for the simulated PMU (struct
 * bt_wl_profile, wl-profile.h), keyed by the workload's name: what
 * workload-counts.c derives every event from. These are MODELS written by
 * hand from each workload's code (workloads/) and the Top-Down paper's case
 * studies, not measurements: a simulated tree shows what the model says,
 * never what a CPU did. A workload without a row here is counted with
 * generated counts, as an -x application is.
 */
#include <string.h>

#include "synth/mem-hierarchy.h"
#include "base/array.h"
#include "synth/wl-costs.h"
#include "synth/wl-profile.h"

/* multiply1/2/3 run an n x n x n loop nest: instructions per run ~ n^3 (6 per
 * innermost iteration scalar, 1.5 for multiply3's 4-wide AVX).
 * multiply1: naive i-j-k, a column walk of B misses on every load. The case-study table of
 * Yasin's Top-Down slides (ISPASS 2014): Backend 0.95, Memory Bound 0.84, Core Bound 0.15,
 * Retiring 0.05. */
static const struct bt_wl_profile multiply1_profile = {
	.insts_per_unit = 6,
	.unit_params = { "n", "n", "n" },
	.uops_per_inst = 1.1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.01,
	.mispredict = 0.005,
	.memory = 0.77,
	.core = 0.15,
	.mem_l2 = 0.1,
	.mem_l3 = 0.2,
	.mem_dram = 0.6,
	.mem_bandwidth = 0.3,
	.branches = 0.17,
	.loads = 0.33,
	.stores = 0.01,
	.fp_ops = 0.33,
	/* The inner k loop loads a[i][k] and b[k][j] (c[i][j] stays in a
	 * register): one load of B per 6 instructions, n x 8 bytes after the
	 * one before, over the n rows of B. */
	.tlb_stride_param = "n",
	.tlb_stride_bytes = 8,
	.tlb_walk_loads = 1.0 / 6,
};

/* multiply2: i-k-j unit stride, scalar: ports and FP latency. Slides' table: Backend 0.52,
 * Memory 0.12, Core 0.64 (its fractions overlap), Retiring 0.41, Frontend 0.07. */
static const struct bt_wl_profile multiply2_profile = {
	.insts_per_unit = 6,
	.unit_params = { "n", "n", "n" },
	.uops_per_inst = 1.1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.02,
	.mispredict = 0.005,
	.memory = 0.15,
	.core = 0.4,
	.mem_l2 = 0.3,
	.mem_l3 = 0.2,
	.mem_dram = 0.2,
	.branches = 0.17,
	.loads = 0.33,
	.stores = 0.17,
	.fp_ops = 0.33,
};

/* multiply3: i-k-j vectorised, fewer instructions: still Core_Bound, the memory share
 * rising. Slides' table: Backend 0.70, Memory 0.31, Core 0.55, Retiring 0.28. */
static const struct bt_wl_profile multiply3_profile = {
	.insts_per_unit = 1.5,
	.unit_params = { "n", "n", "n" },
	.uops_per_inst = 1.1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.02,
	.mispredict = 0.005,
	.memory = 0.25,
	.core = 0.45,
	.mem_l2 = 0.2,
	.mem_l3 = 0.3,
	.mem_dram = 0.3,
	.mem_bandwidth = 0.6,
	.branches = 0.17,
	.loads = 0.33,
	.stores = 0.17,
	.fp_ops = 0,
};

/* ptr-chase-l1, -l2, -l3, -dram: one profile. A step of chase_run (workloads/ptr-chase.c;
 * gcc -O2: add $1,%rdx; add 0x8(%rax),%rcx; mov (%rax),%rax; cmp; jne) is 5 instructions
 * and 2 loads: the next pointer, whose value is the next step's address, and the node's
 * index, summed off the critical path. The chain runs at one step per load-to-use
 * latency of the level the working set (`size`) lands in, whatever the workload is
 * called: ptr-chase-dram:size=16KiB is an L1 chase. bt_wl_profile_resolve derives the
 * slot split from that (chase_size_param, chase_loads: the chain's load, 1 of the 5);
 * the shares below are the small rest: the loop's exit mispredict, a little frontend
 * and core time. The index load reads the line the chain's load brings and is counted
 * as an L1 hit (on silicon it is a fill-buffer hit when the chain's load misses, which
 * Intel's L2_Hit_Latency weighs at half an L2 hit more: a known simplification). The
 * buffer's pages: UEFI maps memory with 2 MiB / 1 GiB pages (workloads/README.md), so
 * the walk's DTLB misses are not modelled. */
static const struct bt_wl_profile chase_profile = {
	.insts_per_unit = 5,
	.unit_params = { "steps" },
	.uops_per_inst = 1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.01,
	.mispredict = 0.001,
	.core = 0.02,
	.branches = 1.0 / 5,
	.loads = 2.0 / 5,
	.chase_size_param = "size",
	.chase_loads = 1.0 / 5,
};

/* stream-read: sequential read: DRAM bandwidth. */
static const struct bt_wl_profile stream_read_profile = {
	.insts_per_unit = 0.375,
	.unit_params = { "size", "laps" },
	.uops_per_inst = 1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.01,
	.memory = 0.8,
	.core = 0.05,
	.mem_l2 = 0.05,
	.mem_l3 = 0.1,
	.mem_dram = 0.8,
	.mem_bandwidth = 0.9,
	.branches = 0.33,
	.loads = 0.33,
};

/* stream-triad: a = b + s*c: DRAM read and write bandwidth. */
static const struct bt_wl_profile stream_triad_profile = {
	.insts_per_unit = 0.25,
	.unit_params = { "size", "laps" },
	.uops_per_inst = 1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.01,
	.memory = 0.75,
	.core = 0.05,
	.mem_l2 = 0.05,
	.mem_l3 = 0.1,
	.mem_dram = 0.55,
	.mem_store = 0.25,
	.mem_bandwidth = 0.9,
	.branches = 0.17,
	.loads = 0.33,
	.stores = 0.17,
	.fp_ops = 0.33,
};

/* branch-mispredict: ~6 instructions per table entry, one of them a branch on the entry
 * (taken with probability taken_pct/100) and one the loop's own. The split below is the
 * predictable loop's (taken_pct 0 or 100: a few loop exits mispredict); the random
 * branch's mispredicts are added per run by bt_wl_profile_resolve (taken_pct 50: about
 * half of them). */
static const struct bt_wl_profile branch_mispredict_profile = {
	.insts_per_unit = 6,
	.unit_params = { "entries", "laps" },
	.uops_per_inst = 1,
	.fe_latency = 0.05,
	.fe_bandwidth = 0.05,
	.mispredict = 0.002,
	.machine_clear = 0.005,
	.memory = 0.04,
	.core = 0.1,
	.mem_l2 = 0.1,
	.branches = 0.34,
	.loads = 0.17,
	.stores = 0,
	.taken_param = "taken_pct",
	.data_branches = 1.0 / 6,
};

/* code-footprint: a jump per block into a new page: icache and itlb misses on every block. */
static const struct bt_wl_profile code_footprint_profile = {
	.insts_per_unit = 4,
	.unit_params = { "blocks", "laps" },
	.uops_per_inst = 1,
	.fe_latency = 0.7,
	.fe_bandwidth = 0.05,
	.fe_icache = 0.55,
	.fe_itlb = 0.35,
	.mispredict = 0.03,
	.memory = 0.02,
	.core = 0.02,
	.branches = 0.3,
	.loads = 0.05,
};

/* div-chain: 1 DIV + ~1 bookkeeping per iteration; the divider is busy ~all the time. */
static const struct bt_wl_profile div_chain_profile = {
	.insts_per_unit = 2,
	.unit_params = { "iterations" },
	.uops_per_inst = 1.5,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.01,
	.mispredict = 0.005,
	.memory = 0.02,
	.core = 0.85,
	.core_divider = 0.9,
	.mem_l2 = 0,
	.branches = 0.5,
	.loads = 0.01,
	.stores = 0.01,
};

/* alu-dep-chain: one dependent ADD per cycle: one port busy, the rest idle. */
static const struct bt_wl_profile alu_dep_chain_profile = {
	.insts_per_unit = 1,
	.unit_params = { "iterations" },
	.uops_per_inst = 1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.01,
	.memory = 0.01,
	.core = 0.72,
	.branches = 0.05,
};

/* alu-independent: 8 chains x 4 ADDs per iteration: as many ADDs per cycle as ALUs. */
static const struct bt_wl_profile alu_independent_profile = {
	.insts_per_unit = 34,
	.unit_params = { "iterations" },
	.uops_per_inst = 1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.02,
	.memory = 0.01,
	.core = 0.12,
	.branches = 0.03,
};

/* store-fwd-block: a narrow store then a wide load of it: every load blocked on store
 * forwarding. */
static const struct bt_wl_profile store_fwd_block_profile = {
	.insts_per_unit = 4,
	.unit_params = { "iterations" },
	.uops_per_inst = 1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.02,
	.memory = 0.75,
	.core = 0.05,
	.l1_store_fwd = 0.9,
	.branches = 0.25,
	.loads = 0.25,
	.stores = 0.25,
};

/* 4k-alias: a store and a load 4 KiB apart: false dependence on every pair. */
static const struct bt_wl_profile alias_4k_profile = {
	.insts_per_unit = 4,
	.unit_params = { "laps" },
	.uops_per_inst = 1,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.02,
	.memory = 0.5,
	.core = 0.1,
	.l1_4k_alias = 0.8,
	.branches = 0.25,
	.loads = 0.25,
	.stores = 0.25,
};

/* denormal-assist: FP multiplies over denormals: each takes a microcode assist. */
static const struct bt_wl_profile denormal_assist_profile = {
	.insts_per_unit = 4096,
	.unit_params = { "laps" },
	.uops_per_inst = 4,
	.fe_latency = 0.02,
	.fe_bandwidth = 0.03,
	.machine_clear = 0.02,
	.memory = 0.05,
	.core = 0.08,
	.heavy = 0.7,
	.ms_share = 0.95,
	.assist_share = 0.9,
	.branches = 0.1,
	.loads = 0.3,
	.stores = 0.2,
	.fp_ops = 0.5,
};

/* false-sharing: increments of a line the other CPU writes: stores wait for the line
 * (their RFOs find it modified in the other core: false sharing), and the load of each
 * increment finds it there too when the partner wrote it since (a HITM snoop served
 * through L3: L3_Bound > Contested_Accesses). No locked instruction: plain
 * read-modify-write (workloads/two-core.c). */
static const struct bt_wl_profile false_sharing_profile = {
	.insts_per_unit = 4,
	.unit_params = { "iterations" },
	.uops_per_inst = 1.2,
	.fe_latency = 0.01,
	.fe_bandwidth = 0.01,
	.machine_clear = 0.03,
	.memory = 0.8,
	.core = 0.03,
	.mem_store = 0.7,
	.mem_l3 = 0.15,
	.l3_snoop_hitm = 0.9,
	.store_false_sharing = 0.9,
	.clear_memory_ordering = 0.9,
	.branches = 0.25,
	.loads = 0.25,
	.stores = 0.25,
};

/* memory-order-clears: loads of lines the other CPU writes: memory-ordering nukes; the
 * loads that wait find the line modified in the other core (HITM snoops, through L3).
 * Plain loads, no locked instruction (workloads/two-core.c). */
static const struct bt_wl_profile memory_order_clears_profile = {
	.insts_per_unit = 4,
	.unit_params = { "iterations" },
	.uops_per_inst = 1,
	.fe_latency = 0.02,
	.fe_bandwidth = 0.02,
	.machine_clear = 0.55,
	.memory = 0.15,
	.core = 0.03,
	.mem_l3 = 0.6,
	.l3_snoop_hitm = 0.9,
	.clear_memory_ordering = 0.95,
	.branches = 0.25,
	.loads = 0.25,
	.stores = 0.05,
};

static const struct {
	const char *workload;
	const struct bt_wl_profile *profile;
} profiles[] = {
	{ "multiply1", &multiply1_profile },
	{ "multiply2", &multiply2_profile },
	{ "multiply3", &multiply3_profile },
	{ "ptr-chase-l1", &chase_profile },
	{ "ptr-chase-l2", &chase_profile },
	{ "ptr-chase-l3", &chase_profile },
	{ "ptr-chase-dram", &chase_profile },
	{ "stream-read", &stream_read_profile },
	{ "stream-triad", &stream_triad_profile },
	{ "branch-mispredict", &branch_mispredict_profile },
	{ "code-footprint", &code_footprint_profile },
	{ "div-chain", &div_chain_profile },
	{ "alu-dep-chain", &alu_dep_chain_profile },
	{ "alu-independent", &alu_independent_profile },
	{ "store-fwd-block", &store_fwd_block_profile },
	{ "4k-alias", &alias_4k_profile },
	{ "denormal-assist", &denormal_assist_profile },
	{ "false-sharing", &false_sharing_profile },
	{ "memory-order-clears", &memory_order_clears_profile },
};

const struct bt_wl_profile *bt_wl_profile_find(const char *workload)
{
	for (size_t k = 0; workload && k < BT_ARRAY_SIZE(profiles); k++)
		if (strcmp(profiles[k].workload, workload) == 0)
			return profiles[k].profile;
	return NULL;
}

const char *bt_wl_profile_name(size_t k)
{
	return k < BT_ARRAY_SIZE(profiles) ? profiles[k].workload : NULL;
}

double bt_wl_profile_insts(const struct bt_wl_profile *p, bt_wl_param_fn *param, const void *ctx)
{
	if (!p)
		return 0;
	double n = p->insts_per_unit;
	for (int k = 0; k < 3; k++) {
		uint64_t v;
		if (p->unit_params[k] && param && param(ctx, p->unit_params[k], &v))
			n *= (double)v;
	}
	return n;
}

/* A chase's split from the hierarchy (wl-profile.h, bt_wl_profile_resolve). */
static void resolve_chase(const struct bt_wl_profile *p, bt_wl_param_fn *param, const void *ctx,
			  double width, const struct bt_mem_hier *h, struct bt_wl_profile *ret)
{
	uint64_t bytes = 0;
	double frac[BT_MEM_LEVELS], lat = 0;

	if (!param || !param(ctx, p->chase_size_param, &bytes))
		bytes = 0; /* no working set named: the L1 */
	bt_mem_hier_chase(h, (double)bytes, frac);
	for (int k = 0; k < BT_MEM_LEVELS; k++) {
		ret->ld_level[k] = frac[k];
		ret->lat[k] = h->lat[k];
		lat += frac[k] * h->lat[k];
	}
	ret->ld_levels = true;
	double upi = p->uops_per_inst < 1 ? 1 : p->uops_per_inst;
	double cpi = p->chase_loads * lat;  /* cycles per instruction: the chain */
	if (cpi < upi / width)
		cpi = upi / width;          /* never faster than the pipeline issues */
	double retiring = upi / (width * cpi);
	double rest = p->fe_latency + p->fe_bandwidth + p->mispredict + p->machine_clear + p->core;
	ret->memory = 1 - retiring - rest;
	if (ret->memory < 0)
		ret->memory = 0;
	/* The memory part's cycles by the level the chain's load waits on: each
	 * load waits its own level's latency. */
	ret->mem_l2 = lat > 0 ? frac[BT_MEM_L2] * h->lat[BT_MEM_L2] / lat : 0;
	ret->mem_l3 = lat > 0 ? frac[BT_MEM_L3] * h->lat[BT_MEM_L3] / lat : 0;
	ret->mem_dram = lat > 0 ? frac[BT_MEM_DRAM] * h->lat[BT_MEM_DRAM] / lat : 0;
	ret->mem_store = 0;
	ret->mem_bandwidth = 0; /* one load in flight: latency, never bandwidth */
}

void bt_wl_profile_resolve(const struct bt_wl_profile *p, bt_wl_param_fn *param, const void *ctx,
			   double width, const struct bt_mem_hier *h, struct bt_wl_profile *ret)
{
	uint64_t pct, steps;
	struct bt_mem_hier def;

	*ret = *p;
	if (h)
		for (int k = 0; k < BT_MEM_LEVELS; k++)
			ret->lat[k] = h->lat[k];
	if (p->chase_size_param && width > 0) {
		if (!h) {
			bt_mem_hier_default(&def);
			h = &def;
		}
		resolve_chase(p, param, ctx, width, h, ret);
	}
	if (p->tlb_stride_param && param && param(ctx, p->tlb_stride_param, &steps)) {
		double stride = p->tlb_stride_bytes * (double)steps;
		if (stride >= BT_WL_PAGE_BYTES) {
			if ((double)steps <= BT_WL_STLB_ENTRIES)
				ret->stlb_hit_loads = p->tlb_walk_loads;
			else
				ret->stlb_miss_loads = p->tlb_walk_loads;
		}
	}
	if (!p->taken_param || !param || !param(ctx, p->taken_param, &pct) || width <= 0)
		return;
	double t = (double)(pct > 100 ? 100 : pct) / 100;
	double miss = p->data_branches * (t < 1 - t ? t : 1 - t); /* per instruction */
	double others = p->fe_latency + p->fe_bandwidth + p->mispredict + p->machine_clear +
			p->memory + p->core;
	double retiring = 1 - others;
	if (retiring <= 0 || miss <= 0)
		return;
	double upi = p->uops_per_inst < 1 ? 1 : p->uops_per_inst;
	double base = upi / (width * retiring);            /* cycles per instruction */
	double extra = miss * BT_WL_CYC_MISPREDICT;     /* cycles per instruction */
	double k = base / (base + extra);
	ret->fe_latency *= k;
	ret->fe_bandwidth *= k;
	ret->machine_clear *= k;
	ret->memory *= k;
	ret->core *= k;
	ret->heavy *= k;
	ret->mispredict = p->mispredict * k + extra / (base + extra);
}

/* SPDX-License-Identifier: MIT */
/*
 * The workload model behind the simulated PMU: every event a Top-Down model
 * uses, derived from one workload profile (synth/wl-profile.h) through one
 * shared set of underlying quantities (struct q below: cycles, slots, uops,
 * bubbles, mispredicts, clears, misses and stall cycles by level, divider
 * activity ...). Each event maps to those quantities by a rule that follows
 * its definition (Intel perfmon names SKL..LNL, the PERF_METRICS fields,
 * the Atom TOPDOWN_*_BOUND families, AMD Zen 4/5 names), many by name family
 * (CYCLE_ACTIVITY.STALLS_L3_MISS and MEMORY_ACTIVITY.STALLS_L3_MISS alike).
 * An event no rule knows counts 0 and is named in the caller's note: never
 * silently.
 *
 * It is a model: counts a CPU with that character could produce, so that the
 * formulas' relations hold (Frontend = Fetch_Latency + Fetch_Bandwidth, ...)
 * and the workload's character shows in the tree. It is not a measurement
 * and not a microarchitecture simulator.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "synth/wl-profile.h"
#include "base/array.h"
#include "synth/count-sources.h"
#include "synth/wl-costs.h"

struct q {
	double W, C, S, I, U, issued;
	double fe_lat_cyc, fe_bw_slots, fe_slots, icache_cyc, itlb_cyc, resteer_cyc;
	double bad_slots, misp_slots, clear_slots, recovery_cyc, misp, clears, clears_mo;
	double mem_cyc, core_cyc, store_cyc, l1_cyc, l2_cyc, l3_cyc, dram_cyc, div_cyc;
	double stall_total, noexec, ms_uops, ms_cyc, heavy_slots, assists;
	bool ld_levels;
	double br, ld, st, l1_hit, l1_miss, l2_miss, l3_miss, l2_hit, l3_hit, fp;
	double ports1, ports2, ports3;
	double stlb_hit_ld, walk_ld, stlb_hit_cyc, walk_cyc, hitm_ld, rfo_hitm, fwd_blocked;
};

static void quantities(struct q *q, const struct bt_wl_profile *p, double insts, double width)
{
	double ret = 1 - p->fe_latency - p->fe_bandwidth - p->mispredict - p->machine_clear -
		     p->memory - p->core;
	/* A dependent chain of DRAM loads retires one uop in hundreds of
	 * slots (bt_wl_profile_resolve): the floor only keeps the division
	 * finite. */
	if (ret < 1e-4)
		ret = 1e-4;
	double upi = p->uops_per_inst < 1 ? 1 : p->uops_per_inst;
	memset(q, 0, sizeof(*q));
	q->W = width;
	q->I = insts;
	q->U = insts * upi;
	q->S = q->U / ret;
	q->C = q->S / width;
	q->fe_lat_cyc = p->fe_latency * q->C;
	q->fe_bw_slots = p->fe_bandwidth * q->S;
	q->fe_slots = q->fe_lat_cyc * width + q->fe_bw_slots;
	q->icache_cyc = p->fe_icache * q->fe_lat_cyc;
	q->itlb_cyc = p->fe_itlb * q->fe_lat_cyc;
	q->misp_slots = p->mispredict * q->S;
	q->clear_slots = p->machine_clear * q->S;
	q->bad_slots = q->misp_slots + q->clear_slots;
	/* Half the lost slots are wrong-path uops issued, half recovery. */
	q->recovery_cyc = q->bad_slots / 2 / width;
	q->issued = q->U + q->bad_slots / 2;
	q->misp = q->misp_slots / width / BT_WL_CYC_MISPREDICT;
	q->clears = q->clear_slots / width / BT_WL_CYC_CLEAR; /* per nuke */
	q->clears_mo = q->clears * p->clear_memory_ordering;
	q->resteer_cyc = q->fe_lat_cyc - q->icache_cyc - q->itlb_cyc;
	if (q->resteer_cyc < 0)
		q->resteer_cyc = 0;
	q->resteer_cyc *= 0.5;
	q->mem_cyc = p->memory * q->C;
	q->core_cyc = p->core * q->C;
	q->store_cyc = p->mem_store * q->mem_cyc;
	q->ld = p->loads * insts;
	q->st = p->stores * insts;
	/* Data-TLB misses of loads (the profile's, or bt_wl_profile_resolve's
	 * from the loop's stride): their translation cycles (an STLB hit's or a
	 * page walk's cost, wl-costs.h) are cycles the loads wait before the
	 * L1 is even looked up, L1-bound time; they come out of the profile's
	 * load stall cycles, whose split between L2, L3 and DRAM shrinks in
	 * proportion, so Memory_Bound stays the profile's. A profile whose
	 * stall cycles cannot hold that many misses at that cost gets fewer
	 * (STLB hits first, then walks). */
	double ldstall = q->mem_cyc - q->store_cyc;
	if (ldstall < 0)
		ldstall = 0;
	q->stlb_hit_ld = fmin(fmin(p->stlb_hit_loads * insts, q->ld), ldstall / BT_WL_CYC_STLB_HIT);
	q->stlb_hit_cyc = q->stlb_hit_ld * BT_WL_CYC_STLB_HIT;
	q->walk_ld = fmin(fmin(p->stlb_miss_loads * insts, q->ld - q->stlb_hit_ld),
			  (ldstall - q->stlb_hit_cyc) / BT_WL_CYC_STLB_MISS);
	q->walk_cyc = q->walk_ld * BT_WL_CYC_STLB_MISS;
	double k = ldstall > 0 ? (ldstall - q->stlb_hit_cyc - q->walk_cyc) / ldstall : 0;
	q->l2_cyc = p->mem_l2 * q->mem_cyc * k;
	q->l3_cyc = p->mem_l3 * q->mem_cyc * k;
	q->dram_cyc = p->mem_dram * q->mem_cyc * k;
	q->l1_cyc = q->mem_cyc - q->store_cyc - q->l2_cyc - q->l3_cyc - q->dram_cyc;
	if (q->l1_cyc < 0)
		q->l1_cyc = 0;
	q->div_cyc = p->core_divider * q->core_cyc;
	/* Cycles executing nothing: memory and half the core stalls, and the
	 * cycles the frontend delivered nothing (the RS ran empty). */
	q->stall_total = q->mem_cyc - q->store_cyc + q->core_cyc * 0.5;
	q->noexec = q->stall_total + q->fe_lat_cyc;
	q->heavy_slots = p->heavy * q->S;
	/* Microcode uops are among the uops beyond one per instruction (SKL's
	 * Heavy_Operations counts exactly those, (RETIRE_SLOTS + MACRO_FUSED -
	 * INST_RETIRED) / SLOTS, and its Microcode_Sequencer child must not
	 * exceed it): never more than U - I of them. */
	q->ms_uops = p->ms_share * fmin(q->heavy_slots, q->U - q->I);
	q->ms_cyc = q->ms_uops / width;
	q->assists = p->assist_share * q->ms_uops / 100; /* ~100 slots per assist */
	q->br = p->branches * insts;
	/* Every loop mispredicts its exit at least: never 0 mispredicts where
	 * there are branches (a count of 0 would make INT_MISC.CLEARS_COUNT equal
	 * MACHINE_CLEARS.COUNT, whose difference the formulas divide by): one
	 * per run, or one in 10^4 branches. */
	double exits = q->br * 1e-4 > 1 ? q->br * 1e-4 : 1;
	if (q->br >= 1 && q->misp < exits)
		q->misp = exits;
	if (q->misp > q->br)
		q->misp = q->br;
	q->fp = p->fp_ops * insts;
	/* A load's cost by the level that serves it: the simulated CPU's
	 * load-to-use latencies (bt_wl_profile_resolve, mem-hierarchy.h), or
	 * wl-costs.h's where the profile was resolved without them. */
	double c_l2 = p->lat[1] > 0 ? p->lat[1] : BT_WL_CYC_L2_HIT;
	double c_l3 = p->lat[2] > 0 ? p->lat[2] : BT_WL_CYC_L3_HIT;
	double c_dram = p->lat[3] > 0 ? p->lat[3] : BT_WL_CYC_DRAM;
	q->l3_miss = fmin(q->dram_cyc / c_dram, q->ld);
	/* L3 hits: those served by a snoop of a line another core modified
	 * (HITM, their share of the L3 time at a HITM's cost), the others at
	 * an L3 hit's; every one of them is an L3 hit. */
	q->hitm_ld = fmin(p->l3_snoop_hitm * q->l3_cyc / BT_WL_CYC_HITM, q->ld - q->l3_miss);
	q->l3_hit = fmin(q->hitm_ld + (1 - p->l3_snoop_hitm) * q->l3_cyc / c_l3,
			 q->ld - q->l3_miss);
	/* Stores whose RFO finds the line modified in another core, at a
	 * HITM's cost each, out of the store-bound cycles. */
	q->rfo_hitm = fmin(p->store_false_sharing * q->store_cyc / BT_WL_CYC_HITM, q->st);
	/* Loads blocked on store forwarding: their share of the L1-bound
	 * cycles at a blocked forward's cost. */
	q->fwd_blocked = fmin(p->l1_store_fwd * q->l1_cyc / BT_WL_CYC_STORE_FWD, q->ld);
	q->l2_hit = fmin(q->l2_cyc / c_l2, q->ld - q->l3_miss - q->l3_hit);
	q->l1_hit = q->ld * 0.9;
	q->ld_levels = p->ld_levels;
	if (p->ld_levels) {
		/* A chase: every load of the chain is served by the level
		 * its share says (bt_mem_hier_chase), each waiting its full
		 * latency; the stall cycles above are those same loads'
		 * waits. */
		double ch = fmin(p->chase_loads * insts, q->ld); /* the chain's loads */
		q->l1_hit = p->ld_level[0] * ch + (q->ld - ch); /* the rest: the line just loaded */
		q->l2_hit = p->ld_level[1] * ch;
		q->l3_hit = p->ld_level[2] * ch;
		q->l3_miss = p->ld_level[3] * ch;
		q->hitm_ld = 0;
	}
	q->l2_miss = q->l3_miss + q->l3_hit;
	q->l1_miss = q->l2_miss + q->l2_hit;
	/* Executing cycles by ports used: core-bound cycles use one port. */
	double exec = q->C - q->noexec;
	q->ports1 = q->core_cyc * 0.5 + exec * 0.2;
	q->ports2 = exec * 0.2;
	q->ports3 = exec * 0.6;
	/* One window's counts partition its slots: each slot is classified
	 * once, so the integer counts of the parts never sum past width x
	 * cycles. Rounded one by one they could, by a few counts, and the
	 * E-cores' level 1, (W x CPU_CLK_UNHALTED.CORE - FE - BE - RETIRING) / slots
	 * with no max(0, ...) in Intel's formula, came out at -1.6e-7: a share
	 * no CPU counts. The cycles take the rounding instead (one cycle in
	 * millions). */
	double parts = (double)llround(q->fe_slots) +
		       (double)llround((q->mem_cyc + q->core_cyc) * width) +
		       (double)llround(q->U) + (double)llround(q->bad_slots);
	if ((double)llround(q->C) * width < parts)
		q->C = ceil(parts / width);
}

/* '*' matches any run of characters. */
static bool glob(const char *pat, const char *s)
{
	if (!*pat)
		return !*s;
	if (*pat == '*')
		return glob(pat + 1, s) || (*s && glob(pat, s + 1));
	return *s == *pat && glob(pat + 1, s + 1);
}

enum qv {
	Z, CYC, SLOTS, INST, UOPS, ISSUED, DISPATCHED, FE_SLOTS, FE_LAT_CYC, FE_LAT_SLOTS, FE_BW_SLOTS,
	ICACHE_CYC, ITLB_CYC, RESTEER_CYC, BAD_SLOTS, MISP_SLOTS, CLEAR_SLOTS, RECOVERY_CYC,
	MISP, CLEARS, CLEARS_ALL, CLEARS_MO, BE_SLOTS, MEM_SLOTS, MEM_CYC, BE_CYC, LDMEM_CYC, L1MISS_CYC, L2MISS_CYC,
	L3MISS_CYC, STORE_CYC, L1_CYC, DIV_CYC, STALL_TOTAL, CORE_CYC, RET_SLOTS, HEAVY_SLOTS,
	LIGHT_SLOTS, NOEXEC, MS_UOPS, MS_CYC, ASSISTS, BR, BR_TAKEN, LD, ST, L1_MISS, L2_MISS, L3_MISS,
	L2_HIT, L3_HIT, L1_HIT, FB_HIT, FP, PORTS1, PORTS2, PORTS3, EXEC_CYC, REF, TSC_Q,
	STLB_HIT_LD, WALK_LD, DTLB_MISS_LD, WALK_CYC, HITM_LD, L3_HIT_NOSNOOP, RFO_HITM, FWD_BLOCKED,
	L2_CYC, L3_CYC, DRAM_CYC, STLB_HIT_CYC, L1_NOTLB_CYC,
};

static double val(const struct q *q, enum qv v)
{
	switch (v) {
	case Z: return 0;
	case CYC: return q->C;
	case SLOTS: return q->S;
	case INST: return q->I;
	case UOPS: return q->U;
	case ISSUED: return q->issued;
	/* AMD's bad speculation is the dispatched ops that did not retire,
	 * (de_src_op_disp.all - ex_ret_ops) / slots, with no recovery term:
	 * its level 1 partitions the dispatch slots, so every slot the model
	 * loses to bad speculation is a dispatched op there (with ISSUED, half
	 * of them vanished and level 1 summed to 57 % on branch-mispredict). */
	case DISPATCHED: return q->U + q->bad_slots;
	case FE_SLOTS: return q->fe_slots;
	case FE_LAT_CYC: return q->fe_lat_cyc;
	case FE_LAT_SLOTS: return q->fe_lat_cyc * q->W;
	case FE_BW_SLOTS: return q->fe_bw_slots;
	case ICACHE_CYC: return q->icache_cyc;
	case ITLB_CYC: return q->itlb_cyc;
	case RESTEER_CYC: return q->resteer_cyc;
	case BAD_SLOTS: return q->bad_slots;
	case MISP_SLOTS: return q->misp_slots;
	case CLEAR_SLOTS: return q->clear_slots;
	case RECOVERY_CYC: return q->recovery_cyc;
	case MISP: return q->misp;
	case CLEARS: return q->clears;
	/* INT_MISC.CLEARS_COUNT counts every clear: each mispredict, including
	 * those of branches on the wrong path that never retire (modelled as
	 * 5 % more than the retired ones: the formulas' Other_Mispredicts), and
	 * each machine clear. Never MACHINE_CLEARS.COUNT alone: the formulas
	 * divide by their difference. */
	case CLEARS_ALL: return q->misp * 1.05 + q->clears;
	case CLEARS_MO: return q->clears_mo;
	case BE_SLOTS: return (q->mem_cyc + q->core_cyc) * q->W;
	case MEM_SLOTS: return q->mem_cyc * q->W;
	case MEM_CYC: return q->mem_cyc;
	case BE_CYC: return q->mem_cyc + q->core_cyc;
	case LDMEM_CYC: return q->mem_cyc - q->store_cyc;
	case L1MISS_CYC: return q->l2_cyc + q->l3_cyc + q->dram_cyc;
	case L2MISS_CYC: return q->l3_cyc + q->dram_cyc;
	case L3MISS_CYC: return q->dram_cyc;
	case STORE_CYC: return q->store_cyc;
	case L1_CYC: return q->l1_cyc;
	case DIV_CYC: return q->div_cyc;
	case STALL_TOTAL: return q->stall_total;
	case CORE_CYC: return q->core_cyc;
	case RET_SLOTS: return q->U;
	case HEAVY_SLOTS: return q->heavy_slots;
	case LIGHT_SLOTS: return q->U - q->heavy_slots;
	case MS_UOPS: return q->ms_uops;
	case MS_CYC: return q->ms_cyc;
	case ASSISTS: return q->assists;
	case BR: return q->br;
	case BR_TAKEN: return q->br * 0.5;
	case LD: return q->ld;
	case ST: return q->st;
	case L1_MISS: return q->l1_miss;
	case L2_MISS: return q->l2_miss;
	case L3_MISS: return q->l3_miss;
	case L2_HIT: return q->l2_hit;
	case L3_HIT: return q->l3_hit;
	case L1_HIT: return q->l1_hit;
	/* Loads that find their line already on its way (a fill buffer): a
	 * tenth of the misses, none in a chase, whose next load's address is
	 * the value still missing. */
	case FB_HIT: return q->ld_levels ? 0 : q->l1_miss * 0.1;
	case FP: return q->fp;
	case PORTS1: return q->ports1;
	case PORTS2: return q->ports2;
	case PORTS3: return q->ports3;
	case EXEC_CYC: return q->C - q->noexec;
	case NOEXEC: return q->noexec;
	case REF: return q->C;
	case TSC_Q: return q->C;
	case STLB_HIT_LD: return q->stlb_hit_ld;
	case WALK_LD: return q->walk_ld;
	case DTLB_MISS_LD: return q->stlb_hit_ld + q->walk_ld;
	case WALK_CYC: return q->walk_cyc;
	case HITM_LD: return q->hitm_ld;
	case L3_HIT_NOSNOOP: return q->l3_hit - q->hitm_ld;
	case RFO_HITM: return q->rfo_hitm;
	case FWD_BLOCKED: return q->fwd_blocked;
	case L2_CYC: return q->l2_cyc;
	case L3_CYC: return q->l3_cyc;
	case DRAM_CYC: return q->dram_cyc;
	case STLB_HIT_CYC: return q->stlb_hit_cyc;
	case L1_NOTLB_CYC: return fmax(q->l1_cyc - q->stlb_hit_cyc - q->walk_cyc, 0);
	}
	return 0;
}

/* Event rules, first match wins: a name pattern, a quantity, a factor.
 * Modifiers (":c1", ":SUP") are part of the name; where a rule does not
 * name them, the base event's rule applies to them too (see below). */
static const struct rule {
	const char *pat;
	enum qv v;
	double f;
} rules[] = {
	/* Fixed events and their general twins: the same quantity. */
	{ "INST_RETIRED.ANY*", INST, 1 }, { "INST_RETIRED.PREC_DIST", INST, 1 },
	{ "instructions", INST, 1 }, { "ex_ret_instr", INST, 1 },
	{ "CPU_CLK_UNHALTED.THREAD*", CYC, 1 }, { "CPU_CLK_UNHALTED.CORE*", CYC, 1 },
	{ "CPU_CLK_UNHALTED.DISTRIBUTED", CYC, 1 }, { "CPU_CLK_UNHALTED.PAUSE*", Z, 0 },
	{ "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", REF, 0.01 },
	{ "CPU_CLK_UNHALTED.REF_XCLK*", REF, 0.01 }, { "CPU_CLK_UNHALTED.REF*", REF, 1 },
	{ "CPU_CLK_UNHALTED.C0*", Z, 0 }, { "CPU_CLK_UNHALTED.C01", Z, 0 },
	{ "CPU_CLK_UNHALTED.C02", Z, 0 }, { "ls_not_halted_cyc", CYC, 1 },
	{ "TOPDOWN.SLOTS*", SLOTS, 1 }, { "TOPDOWN.BACKEND_BOUND_SLOTS", BE_SLOTS, 1 },
	{ "TOPDOWN.BAD_SPEC_SLOTS", BAD_SLOTS, 1 }, { "TOPDOWN.BR_MISPREDICT_SLOTS", MISP_SLOTS, 1 },
	{ "TOPDOWN.MEMORY_BOUND_SLOTS", MEM_SLOTS, 1 },
	/* The architectural Top-Down events (SDM vol. 3B, "Pre-defined
	 * Architectural Performance Events"; base/arch-event.h names them):
	 * the same slot quantities as the PERF_METRICS fields and the Atom
	 * TOPDOWN_* events count, so ARCH's level 1 agrees with the full
	 * models' on the same workload. */
	{ "Topdown_Slots", SLOTS, 1 }, { "Topdown_Backend_Bound", BE_SLOTS, 1 },
	{ "Topdown_Bad_Speculation", BAD_SLOTS, 1 }, { "Topdown_Frontend_Bound", FE_SLOTS, 1 },
	{ "Topdown_Retiring", RET_SLOTS, 1 },
	/* PERF_METRICS fields, as slot counts (metrics/perf-metrics.h). */
	{ "PERF_METRICS.RETIRING", RET_SLOTS, 1 }, { "PERF_METRICS.BAD_SPECULATION", BAD_SLOTS, 1 },
	{ "PERF_METRICS.FRONTEND_BOUND", FE_SLOTS, 1 }, { "PERF_METRICS.BACKEND_BOUND", BE_SLOTS, 1 },
	{ "PERF_METRICS.HEAVY_OPERATIONS", HEAVY_SLOTS, 1 },
	{ "PERF_METRICS.BRANCH_MISPREDICTS", MISP_SLOTS, 1 },
	{ "PERF_METRICS.FETCH_LATENCY", FE_LAT_SLOTS, 1 },
	{ "PERF_METRICS.MEMORY_BOUND", MEM_SLOTS, 1 },
	/* Slots and uops (pre-ICL level 1). */
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", FE_SLOTS, 1 },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV*", FE_LAT_CYC, 1 },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_FE_WAS_OK", CYC, 0.5 },
	{ "IDQ_BUBBLES.FETCH_LATENCY", FE_LAT_CYC, 1 }, { "IDQ_BUBBLES.STARVATION_CYCLES", FE_LAT_CYC, 1 },
	{ "IDQ_BUBBLES.CORE", FE_SLOTS, 1 }, { "IDQ_BUBBLES.*", FE_LAT_CYC, 1 },
	{ "UOPS_ISSUED.ANY:c1", CYC, 0.6 }, { "UOPS_ISSUED.ANY", ISSUED, 1 },
	{ "UOPS_ISSUED.VECTOR_WIDTH_MISMATCH", Z, 0 },
	{ "UOPS_RETIRED.RETIRE_SLOTS:c1", CYC, 0.5 }, { "UOPS_RETIRED.SLOTS:c1", CYC, 0.5 },
	{ "UOPS_RETIRED.RETIRE_SLOTS", RET_SLOTS, 1 }, { "UOPS_RETIRED.SLOTS", RET_SLOTS, 1 },
	{ "UOPS_RETIRED.ALL", RET_SLOTS, 1 }, { "UOPS_RETIRED.HEAVY", HEAVY_SLOTS, 1 },
	{ "UOPS_RETIRED.MS:c1:e1", ASSISTS, 1 }, { "UOPS_RETIRED.MS:c1", MS_CYC, 1 },
	{ "UOPS_RETIRED.MS", MS_UOPS, 1 }, { "UOPS_RETIRED.IDIV", DIV_CYC, 0.05 },
	{ "UOPS_RETIRED.FPDIV", Z, 0 }, { "UOPS_RETIRED.MACRO_FUSED", BR, 0.8 },
	{ "UOPS_RETIRED.X87", Z, 0 }, { "IDQ.MS_UOPS", MS_UOPS, 1 }, { "IDQ.MS_CYCLES_ANY", MS_CYC, 1 },
	{ "IDQ.MS_SWITCHES", ASSISTS, 1 }, { "IDQ.MS_*", MS_CYC, 1 },
	{ "INT_MISC.RECOVERY_CYCLES*", RECOVERY_CYC, 1 }, { "INT_MISC.CLEARS_COUNT", CLEARS_ALL, 1 },
	{ "INT_MISC.CLEAR_RESTEER_CYCLES", RESTEER_CYC, 0.5 },
	{ "INT_MISC.UNKNOWN_BRANCH_CYCLES*", RESTEER_CYC, 0.05 },
	{ "INT_MISC.UOP_DROPPING", Z, 0 }, { "INT_MISC.MBA_STALLS", Z, 0 },
	/* Branches. */
	{ "BR_MISP_RETIRED.ALL_BRANCHES*", MISP, 1 },
	/* Conditional mispredicts: 0.9 of all, split by direction so that the
	 * parts add up to the whole (not-taken 0.45, taken 0.45 of which
	 * backward 0.05, forward 0.4). */
	{ "BR_MISP_RETIRED.COND_NTAKEN*", MISP, 0.45 }, { "BR_MISP_RETIRED.COND_TAKEN_BWD*", MISP, 0.05 },
	{ "BR_MISP_RETIRED.COND_TAKEN_FWD*", MISP, 0.4 }, { "BR_MISP_RETIRED.COND_TAKEN*", MISP, 0.45 },
	{ "BR_MISP_RETIRED.COND*", MISP, 0.9 },
	{ "BR_MISP_RETIRED.*", MISP, 0.02 }, { "BR_MISP_EXEC.*", MISP, 0.02 },
	{ "ex_ret_brn_misp", MISP, 1 }, { "ex_ret_brn", BR, 1 },
	{ "BR_INST_RETIRED.ALL_BRANCHES*", BR, 1 }, { "BR_INST_RETIRED.COND*", BR, 0.8 },
	{ "BR_INST_RETIRED.NEAR_TAKEN", BR_TAKEN, 1 }, { "BR_INST_RETIRED.FAR_BRANCH*", Z, 0 },
	{ "BR_INST_RETIRED.*", BR, 0.05 }, { "BACLEARS.ANY", MISP, 0.1 },
	{ "MACHINE_CLEARS.COUNT", CLEARS, 1 }, { "MACHINE_CLEARS.MEMORY_ORDERING", CLEARS_MO, 1 },
	{ "MACHINE_CLEARS.*", Z, 0 },
	{ "TOPDOWN_BAD_SPECULATION.ALL", BAD_SLOTS, 1 }, { "TOPDOWN_BAD_SPECULATION.ALL_P", BAD_SLOTS, 1 },
	{ "TOPDOWN_BAD_SPECULATION.MISPREDICT", MISP_SLOTS, 1 },
	{ "TOPDOWN_BAD_SPECULATION.MACHINE_CLEARS", CLEAR_SLOTS, 1 },
	{ "TOPDOWN_BAD_SPECULATION.NUKE", CLEAR_SLOTS, 1 },
	{ "TOPDOWN_BAD_SPECULATION.FASTNUKE", Z, 0 },
	/* Atom level 1-2 (slot counts). */
	{ "TOPDOWN_FE_BOUND.ALL", FE_SLOTS, 1 }, { "TOPDOWN_FE_BOUND.ALL_P", FE_SLOTS, 1 },
	{ "TOPDOWN_FE_BOUND.FRONTEND_LATENCY", FE_LAT_SLOTS, 1 },
	{ "TOPDOWN_FE_BOUND.FRONTEND_BANDWIDTH", FE_BW_SLOTS, 1 },
	{ "TOPDOWN_FE_BOUND.ICACHE", ICACHE_CYC, 1 }, /* x width below */
	{ "TOPDOWN_FE_BOUND.ITLB*", ITLB_CYC, 1 },
	{ "TOPDOWN_FE_BOUND.BRANCH_RESTEER", RESTEER_CYC, 1 },
	{ "TOPDOWN_FE_BOUND.DECODE", FE_BW_SLOTS, 0.5 }, { "TOPDOWN_FE_BOUND.OTHER", FE_BW_SLOTS, 0.5 },
	{ "TOPDOWN_FE_BOUND.*", Z, 0 },
	{ "TOPDOWN_BE_BOUND.ALL", BE_SLOTS, 1 }, { "TOPDOWN_BE_BOUND.ALL_P", BE_SLOTS, 1 },
	{ "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS", CORE_CYC, 0.05 }, /* x width below */
	{ "TOPDOWN_BE_BOUND.MEM_SCHEDULER", MEM_SLOTS, 0.5 },
	{ "TOPDOWN_BE_BOUND.REORDER_BUFFER", MEM_SLOTS, 0.5 },
	{ "TOPDOWN_BE_BOUND.NON_MEM_SCHEDULER", CORE_CYC, 1 },
	{ "TOPDOWN_BE_BOUND.*", Z, 0 },
	{ "TOPDOWN_RETIRING.ALL", RET_SLOTS, 1 }, { "TOPDOWN_RETIRING.ALL_P", RET_SLOTS, 1 },
	/* Backend stalls by level (CYCLE_ACTIVITY, MEMORY_ACTIVITY, EXE_ACTIVITY). */
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", STALL_TOTAL, 1 },
	{ "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", NOEXEC, 1 },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", LDMEM_CYC, 1 },
	{ "CYCLE_ACTIVITY.STALLS_LDM_PENDING", LDMEM_CYC, 1 },
	{ "CYCLE_ACTIVITY.CYCLES_MEM_ANY", LDMEM_CYC, 1.2 },
	{ "*ACTIVITY.STALLS_L1D_*", L1MISS_CYC, 1 }, { "*ACTIVITY.CYCLES_L1D_*", L1MISS_CYC, 1.2 },
	{ "*ACTIVITY.STALLS_L2_*", L2MISS_CYC, 1 }, { "*ACTIVITY.STALLS_L3_MISS", L3MISS_CYC, 1 },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", STORE_CYC, 1 },
	{ "EXE_ACTIVITY.BOUND_ON_LOADS", LDMEM_CYC, 1 },
	{ "EXE_ACTIVITY.EXE_BOUND_0_PORTS", CORE_CYC, 0.5 },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", PORTS1, 1 }, { "EXE_ACTIVITY.2_PORTS_UTIL", PORTS2, 1 },
	{ "EXE_ACTIVITY.2_3_PORTS_UTIL", PORTS2, 1 }, { "EXE_ACTIVITY.3_PORTS_UTIL*", PORTS3, 1 },
	{ "RESOURCE_STALLS.SB", STORE_CYC, 1 }, { "RESOURCE_STALLS.*", Z, 0 },
	{ "RS_EVENTS.EMPTY_CYCLES", FE_LAT_CYC, 1 }, { "RS.EMPTY*", FE_LAT_CYC, 1 },
	/* IVB/HSW: ARITH.FPU_DIV_ACTIVE is the divider-busy event. */
	{ "ARITH.FPU_DIV_ACTIVE", DIV_CYC, 1 }, { "ARITH.FP*DIV*", Z, 0 }, { "ARITH.*DIV*ACTIVE", DIV_CYC, 1 }, /* HSW: Divider = 10 x DIVIDER_UOPS / cycles (a divide ~10 cycles). */
	{ "ARITH.DIVIDER_UOPS", DIV_CYC, 0.1 },
	{ "ASSISTS.ANY", ASSISTS, 1 }, { "ASSISTS.FP", ASSISTS, 1 }, { "ASSISTS.*", Z, 0 },
	{ "OTHER_ASSISTS.ANY*", ASSISTS, 1 }, { "OTHER_ASSISTS.*", Z, 0 },
	{ "FP_ASSIST.ANY", ASSISTS, 1 }, { "FP_ASSIST.*", ASSISTS, 1 },
	/* Frontend latency causes. */
	{ "ICACHE_16B.IFDATA_STALL", ICACHE_CYC, 1 }, { "ICACHE_DATA.STALLS", ICACHE_CYC, 1 },
	{ "ICACHE.IFETCH_STALL", ICACHE_CYC, 1 }, { "ICACHE.IFDATA_STALL", ICACHE_CYC, 1 },
	{ "ICACHE_TAG.STALLS", ITLB_CYC, 1 }, { "ICACHE_64B.IFTAG_STALL", ITLB_CYC, 1 },
	{ "ITLB_MISSES.WALK_ACTIVE", ITLB_CYC, 0.5 }, { "ITLB_MISSES.WALK_DURATION*", ITLB_CYC, 0.5 },
	{ "ITLB_MISSES.STLB_HIT", ITLB_CYC, 0.02 }, { "ITLB_MISSES.*", ITLB_CYC, 0.01 },
	{ "DSB2MITE_SWITCHES.*", Z, 0 }, { "ILD_STALL.LCP", Z, 0 }, { "DECODE.LCP", Z, 0 },
	/* Retired loads by where they hit. */
	{ "MEM_*RETIRED.ALL_LOADS", LD, 1 }, { "MEM_*RETIRED.ALL_STORES", ST, 1 },
	{ "MEM_LOAD*RETIRED.L1_HIT", L1_HIT, 1 }, { "MEM_LOAD*RETIRED.L1_MISS", L1_MISS, 1 },
	{ "MEM_LOAD*RETIRED.L2_HIT", L2_HIT, 1 }, { "MEM_LOAD*RETIRED.L2_MISS", L2_MISS, 1 },
	{ "MEM_LOAD*RETIRED.L3_HIT", L3_HIT, 1 }, { "MEM_LOAD*RETIRED.LLC_HIT", L3_HIT, 1 },
	{ "MEM_LOAD*RETIRED.L3_MISS", L3_MISS, 1 }, { "MEM_LOAD*RETIRED.LLC_MISS", L3_MISS, 1 },
	{ "MEM_LOAD*RETIRED.FB_HIT", FB_HIT, 1 }, { "MEM_LOAD*RETIRED.HIT_LFB", FB_HIT, 1 },
	{ "MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM", L3_MISS, 1 },
	{ "MEM_LOAD_L3_HIT_RETIRED.XSNP_NONE", L3_HIT_NOSNOOP, 1 },
	{ "MEM_LOAD_UOPS_L3_HIT_RETIRED.XSNP_NONE", L3_HIT_NOSNOOP, 1 },
	{ "MEM_LOAD_UOPS_LLC_HIT_RETIRED.XSNP_NONE", L3_HIT_NOSNOOP, 1 },
	/* L3 hits served by a cross-core snoop of a modified line: XSNP_HITM
	 * (Skylake, Ice Lake, Lunar/Arrow Lake: "HitM responses"), XSNP_FWD
	 * at umask 0x04 (Sapphire Rapids, Meteor Lake, Granite Rapids: "HitM
	 * responses"), the offcore responses of demand reads alike. Lunar and
	 * Arrow Lake's XSNP_FWD (umask 0x10) is another thing, a clean line
	 * forwarded by another core (their XSNP_HITM: "Hit-with-FWD is
	 * normally excluded"): 0 (bt_sim_workload_counts), as the model has no
	 * clean snoop hits (XSNP_HIT, XSNP_NO_FWD: 0) and one socket
	 * (XSNP_MISS: 0). */
	{ "MEM_LOAD*L3_HIT_RETIRED.XSNP_HITM", HITM_LD, 1 },
	{ "MEM_LOAD*L3_HIT_RETIRED.XSNP_FWD", HITM_LD, 1 },
	{ "MEM_LOAD_UOPS_LLC_HIT_RETIRED.XSNP_HITM", HITM_LD, 1 },
	{ "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", HITM_LD, 1 },
	{ "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", HITM_LD, 1 },
	/* Stores whose RFO found the line modified in another core. */
	{ "OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM", RFO_HITM, 1 },
	{ "OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.SNOOP_HITM", RFO_HITM, 1 },
	/* Lunar / Arrow Lake: the cycles the oldest load waits on each level. */
	{ "MEMORY_STALLS.L1", L1_CYC, 1 }, { "MEMORY_STALLS.L2", L2_CYC, 1 },
	{ "MEMORY_STALLS.L3", L3_CYC, 1 }, { "MEMORY_STALLS.MEM", DRAM_CYC, 1 },
	/* Data-TLB misses of loads (bt_wl_profile_resolve: multiply1's column
	 * walk once a row of B is a page or more). STLB_HIT:c1 (cycles with an
	 * STLB hit) counts each hit once: the formulas weigh it with the hit's
	 * cost. Page walks are all of 4-KiB pages; stores do not miss. */
	{ "DTLB_LOAD_MISSES.STLB_HIT*", STLB_HIT_LD, 1 },
	{ "DTLB_LOAD_MISSES.WALK_ACTIVE", WALK_CYC, 1 },
	{ "DTLB_LOAD_MISSES.WALK_PENDING", WALK_CYC, 1 },
	{ "DTLB_LOAD_MISSES.WALK_DURATION*", WALK_CYC, 1 },
	{ "DTLB_LOAD_MISSES.WALK_COMPLETED", WALK_LD, 1 },
	{ "DTLB_LOAD_MISSES.WALK_COMPLETED_4K", WALK_LD, 1 },
	{ "DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK", WALK_LD, 1 },
	{ "MEM_INST_RETIRED.STLB_HIT_LOADS", STLB_HIT_LD, 1 },
	{ "MEM_INST_RETIRED.STLB_MISS_LOADS", WALK_LD, 1 },
	{ "MEM_UOPS_RETIRED.STLB_MISS_LOADS", WALK_LD, 1 },
	{ "MEM_INST_RETIRED.STLB_HIT_ANY", STLB_HIT_LD, 1 },
	{ "MEM_INST_RETIRED.STLB_MISS_ANY", WALK_LD, 1 },
	/* Loads blocked on store forwarding (store-fwd-block). */
	{ "LD_BLOCKS.STORE_FORWARD", FWD_BLOCKED, 1 },
	{ "L1D.REPLACEMENT", L1_MISS, 1 }, { "L2_LINES_IN.ALL", L2_MISS, 1 },
	{ "LONGEST_LAT_CACHE.MISS", L3_MISS, 1 }, { "LONGEST_LAT_CACHE.REFERENCE", L2_MISS, 1 },
	{ "L2_RQSTS.MISS", L2_MISS, 1 }, { "L2_RQSTS.ALL_DEMAND_DATA_RD", L1_MISS, 1 },
	{ "L2_RQSTS.DEMAND_DATA_RD_HIT", L2_HIT, 1 }, { "L2_RQSTS.DEMAND_DATA_RD_MISS", L2_MISS, 1 },
	{ "L2_RQSTS.REFERENCES", L1_MISS, 1 }, { "L2_RQSTS.*", Z, 0 },
	{ "L1D_PEND_MISS.PENDING_CYCLES*", L1MISS_CYC, 1.2 }, { "L1D_PEND_MISS.PENDING", L1MISS_CYC, 2 },
	{ "L1D_PEND_MISS.*", Z, 0 },
	{ "OFFCORE_REQUESTS.DEMAND_DATA_RD", L2_MISS, 1 }, { "OFFCORE_REQUESTS.ALL_DATA_RD", L2_MISS, 1 },
	{ "OFFCORE_REQUESTS.*", L2_MISS, 0.1 },
	{ "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD", L2MISS_CYC, 1.1 },
	{ "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_DATA_RD", L2MISS_CYC, 1.1 },
	{ "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", L2MISS_CYC, 1.2 },
	{ "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD", L2MISS_CYC, 1.2 },
	{ "OFFCORE_REQUESTS_OUTSTANDING.*", Z, 0 },
	{ "OCR.DEMAND_DATA_RD.L3_MISS*", L3_MISS, 1 }, { "OCR.*", Z, 0 }, { "OFFCORE_RESPONSE*", Z, 0 },
	/* AMD Zen 4/5 (PPR names). */
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", FE_SLOTS, 1 },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend:c*", FE_LAT_CYC, 1 },
	{ "de_no_dispatch_per_slot.backend_stalls", BE_SLOTS, 1 },
	{ "de_no_dispatch_per_slot.smt_contention", Z, 0 },
	{ "de_src_op_disp.all", DISPATCHED, 1 }, { "ex_ret_ops", RET_SLOTS, 1 },
	{ "ex_ret_ucode_ops", MS_UOPS, 1 },
	{ "ex_no_retire.load_not_complete", LDMEM_CYC, 1 }, { "ex_no_retire.not_complete", BE_CYC, 1 },
	{ "resyncs_or_nc_redirects", CLEARS, 1 }, { "bp_redirects.resync", CLEARS, 1 },
	/* Atom memory stalls. */
	{ "MEM_BOUND_STALLS*.*L2_HIT", L1MISS_CYC, 0.2 }, { "MEM_BOUND_STALLS*.*LLC_HIT", L2MISS_CYC, 0.3 },
	{ "MEM_BOUND_STALLS*.*DRAM_HIT", L3MISS_CYC, 1 }, { "MEM_BOUND_STALLS*.*LLC_MISS", L3MISS_CYC, 1 },
	{ "MEM_BOUND_STALLS*.LOAD*", L1MISS_CYC, 1 }, { "MEM_BOUND_STALLS*.*", Z, 0 },
	{ "LD_HEAD.ANY_AT_RET", LDMEM_CYC, 1 }, { "LD_HEAD.L1_MISS_AT_RET", L1MISS_CYC, 1 },
	/* The load at the head of retirement, by what holds it: the parts of
	 * the load stall cycles (L1 misses, L1-bound, an STLB hit's or a page
	 * walk's translation) add up to ANY_AT_RET. */
	{ "LD_HEAD.L1_BOUND_AT_RET", L1_NOTLB_CYC, 1 }, { "LD_HEAD.DTLB_MISS_AT_RET", STLB_HIT_CYC, 1 },
	{ "LD_HEAD.PGWALK_AT_RET", WALK_CYC, 1 }, { "LD_HEAD.*", Z, 0 },
	/* Execution and FP. */
	{ "UOPS_EXECUTED.THREAD", UOPS, 1 }, { "UOPS_EXECUTED.CORE", UOPS, 1 },
	{ "UOPS_EXECUTED.CYCLES_GE_1*", EXEC_CYC, 1 }, { "UOPS_EXECUTED.CORE_CYCLES_GE_1", EXEC_CYC, 1 },
	{ "UOPS_EXECUTED.CORE:c1", EXEC_CYC, 1 }, { "UOPS_EXECUTED.CORE:c1:i1", NOEXEC, 1 },
	{ "UOPS_EXECUTED.*:c2", EXEC_CYC, 0.8 }, { "UOPS_EXECUTED.*GE_2*", EXEC_CYC, 0.8 },
	{ "UOPS_EXECUTED.*:c3", EXEC_CYC, 0.6 }, { "UOPS_EXECUTED.*GE_3*", EXEC_CYC, 0.6 },
	{ "UOPS_EXECUTED.*", Z, 0 },
	{ "UOPS_DISPATCHED*", UOPS, 0.15 },
	{ "FP_ARITH_INST_RETIRED.SCALAR_DOUBLE", FP, 1 }, { "FP_ARITH_INST_RETIRED.SCALAR", FP, 1 },
	{ "FP_COMP_OPS_EXE.SSE_SCALAR_DOUBLE", FP, 1 },
	{ "FP_ARITH*", Z, 0 }, { "FP_COMP_OPS_EXE.*", Z, 0 }, { "SIMD_FP_256.*", Z, 0 },
	{ "FP_INST_RETIRED.*", Z, 0 }, { "FP_FLOPS_RETIRED.*", Z, 0 }, { "INT_VEC_RETIRED.*", Z, 0 },
	{ "LSD.*", Z, 0 }, { "IDQ.DSB_UOPS", UOPS, 0.5 }, { "IDQ.MITE_UOPS", UOPS, 0.5 },
	{ "IDQ.*", Z, 0 },
	/* Rare events a clean workload barely causes: 0 by rule (documented,
	 * not "unknown"). The rules above come first (first match wins): what
	 * the model drives (DTLB load misses, HITM snoops, blocked forwards)
	 * counts; what no built-in workload does stays 0 here: locked loads
	 * (none has a LOCK prefix), split loads and stores, store DTLB misses,
	 * clean or missed snoops, 4K aliasing's and other load blocks. */
	{ "LD_BLOCKS*", Z, 0 }, { "DTLB_*", Z, 0 }, { "MEM_INST_RETIRED.*", Z, 0 },
	{ "MEM_UOPS_RETIRED.*", Z, 0 }, { "MEM_LOAD_*", Z, 0 },
	/* Retired instructions behind a code-side miss: the icache and ITLB
	 * stall cycles over what one costs (wl-costs.h), a tenth of them going
	 * further (L2 miss, page walk); each L1I miss also misses the DSB. The
	 * latency and bubble sub-events, MS flows and unknown branches: 0. */
	{ "FRONTEND_RETIRED.L1I_MISS", ICACHE_CYC, 1 / BT_WL_CYC_ICACHE_MISS },
	{ "FRONTEND_RETIRED.L2_MISS", ICACHE_CYC, BT_WL_CODE_FAR / BT_WL_CYC_ICACHE_MISS },
	{ "FRONTEND_RETIRED.ITLB_MISS", ITLB_CYC, 1 / BT_WL_CYC_ITLB_MISS },
	{ "FRONTEND_RETIRED.STLB_MISS", ITLB_CYC, BT_WL_CODE_FAR / BT_WL_CYC_ITLB_MISS },
	{ "FRONTEND_RETIRED.DSB_MISS", ICACHE_CYC, 1 / BT_WL_CYC_ICACHE_MISS },
	{ "FRONTEND_RETIRED.ANY_DSB_MISS", ICACHE_CYC, 1 / BT_WL_CYC_ICACHE_MISS },
	{ "FRONTEND_RETIRED.*", Z, 0 },
	{ "TSC", TSC_Q, 1 },
};

/* The rule for a name, trying it whole and then without its modifiers. */
static const struct rule *rule_for(const char *name)
{
	char base[128];
	for (size_t k = 0; k < BT_ARRAY_SIZE(rules); k++)
		if (glob(rules[k].pat, name))
			return &rules[k];
	snprintf(base, sizeof(base), "%s", name);
	char *colon = strchr(base, ':');
	if (!colon)
		return NULL;
	*colon = '\0';
	for (size_t k = 0; k < BT_ARRAY_SIZE(rules); k++)
		if (glob(rules[k].pat, base))
			return &rules[k];
	return NULL;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

bt_status bt_sim_workload_counts(const struct bt_event *const *events, size_t n,
				 const struct bt_wl_profile *p, double insts, double width,
				 uint64_t seed, struct bt_sim_count *out,
				 char *unknown, size_t unknown_len, double *cycles)
{
	struct q q;
	/* Noise: one small factor for the whole run (seeded), so that every
	 * event moves together and the relations between them hold. */
	uint64_t s = seed;
	double noise = 1 + ((double)(splitmix(&s) % 2001) - 1000) * 1e-5; /* +-1 % */
	quantities(&q, p, insts * noise, width);
	if (cycles)
		*cycles = q.C;
	size_t ul = 0;
	if (unknown_len)
		unknown[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const struct bt_event *e = events[i];
		const char *name = e->name ? e->name : "";
		out[i].ev = *e;
		out[i].count = 0;
		if (e->source == BT_SRC_DURATION || e->source == BT_SRC_UNCORE)
			continue;
		const struct rule *r = rule_for(name);
		if (!r) {
			/* Keep room for ", ..." when the list does not fit. */
			if (strstr(unknown, ", ..."))
				continue;
			if (ul + strlen(name) + 9 < unknown_len)
				ul += (size_t)snprintf(unknown + ul, unknown_len - ul, "%s%s",
						       ul ? ", " : "", name);
			else if (unknown_len > ul + 6)
				ul += (size_t)snprintf(unknown + ul, unknown_len - ul, ", ...");
			continue;
		}
		double v = val(&q, r->v) * r->f;
		if (r->v == HITM_LD && e->code == 0xD2 && e->umask == 0x10)
			v = 0; /* Lunar / Arrow Lake's XSNP_FWD: clean forwards (above) */
		/* ":e1" (edge) counts episodes of a condition the rule counts in
		 * cycles: ~20 cycles each, unless the rule names it itself. */
		if (strstr(name, ":e1") && !strstr(r->pat, ":e1"))
			v /= 20;
		if (!strncmp(name, "TOPDOWN_FE_BOUND.I", 18) ||
		    !strcmp(name, "TOPDOWN_FE_BOUND.BRANCH_RESTEER") ||
		    !strcmp(name, "TOPDOWN_BE_BOUND.NON_MEM_SCHEDULER") ||
		    !strcmp(name, "TOPDOWN_BE_BOUND.ALLOC_RESTRICTIONS"))
			v *= width; /* cycle quantities as slot counts */
		if (e->source == BT_SRC_TSC)
			v = q.C; /* the simulated core runs at the TSC's clock */
		out[i].count = v > 0 ? (uint64_t)llround(v) : 0;
	}
	/* PERF_METRICS: the slot counts must be floor(SLOTS*b/255): round them
	 * to the nearest representable byte of the SLOTS count. */
	uint64_t slots = 0;
	for (size_t i = 0; i < n; i++)
		if (out[i].ev.source == BT_SRC_PMC && out[i].ev.fixed == 3 && !out[i].ev.flags)
			slots = out[i].count;
	for (size_t i = 0; i < n; i++)
		if (out[i].ev.source == BT_SRC_PERF_METRICS) {
			if (!slots)
				return BT_ERR_INVALID;
			uint64_t b = (out[i].count * 255 + slots / 2) / slots;
			out[i].count = slots * (b > 255 ? 255 : b) / 255;
		}
	return BT_OK;
}

/* SPDX-License-Identifier: MIT */
/*
 * What the simulated PMU counts over a known-count kernel (--validate): the
 * kernel's declared architectural counts (kernels/, checked against QEMU
 * -icount and cachegrind) under each encoding that counts them on this
 * vendor, plus modelled micro-architectural counts: cycles from the
 * model's IPC, reference cycles = cycles (the simulated clock never
 * changes frequency), SLOTS = width x cycles (the model's pipeline width), mispredicts = one per loop exit
 * plus half the PRNG-directed branches. The table is the sim's own, from
 * the vendors' event lists (facts):
 *
 *   Intel (SDM vol. 3B "Pre-defined Architectural Performance Events"):
 *     3CH/00H core cycles, 3CH/01H reference cycles, C0H/00H instructions,
 *     C4H/00H all branches, C5H/00H all mispredicted branches;
 *     fixed counters 0..3: instructions, cycles, reference cycles, slots.
 *     BR_INST_RETIRED (C4H) umasks per core family: see below.
 *     Retired and issued uops (the vendors' event lists): Sandy Bridge..
 *     Skylake UOPS_RETIRED.RETIRE_SLOTS C2H/02H, UOPS_ISSUED.ANY 0EH/01H,
 *     Skylake also UOPS_RETIRED.MACRO_FUSED C2H/04H; Ice Lake UOPS_RETIRED.SLOTS C2H/02H,
 *     UOPS_ISSUED.ANY 0EH/01H; Golden Cove..Redwood Cove the same with
 *     UOPS_ISSUED.ANY AEH/01H and INST_RETIRED.MACRO_FUSED C0H/10H (Lion
 *     Cove C0H/30H); Atom cores UOPS_RETIRED.ALL C2H/00H, UOPS_ISSUED.ANY
 *     0EH/00H, and the architectural Topdown Retiring C2H/02H the same
 *     retired uops (one slot each). The model: on the big cores every conditional branch of a
 *     kernel macro-fuses with the instruction before it (DEC/JNZ does, SDM
 *     vol. 1 and the optimization manual's "macro-fusion"), so a fused pair
 *     is one uop; an Atom core's are counted unfused; issued = retired (the
 *     kernels mispredict about once: no wrong-path uops are modelled).
 *     Lion Cove's branch umasks with UMaskExt, INDIRECT C4H/80H, Topdown
 *     Slots A4H/01H and retired loads / stores D0H/81H, 82H: see below.
 *   AMD (family 17h+ PPRs): 076H cycles not halted, 0C0H retired
 *     instructions, 0C2H retired branches, 0C3H retired mispredicted
 *     branches, 0C4H retired taken branches, 0C8H retired near returns.
 */
#include <string.h>

#include "synth/count-sources.h"
#include "base/array.h"

enum q { Q_INST, Q_BR, Q_MISP, Q_CYC, Q_REF, Q_TAKEN, Q_RET, Q_SLOTS, Q_CALL, Q_COND,
	 Q_COND_TAKEN, Q_COND_NTAKEN, Q_NEAR_TAKEN, Q_UOPS_FUSED, Q_UOPS_UNFUSED, Q_LOADS,
	 Q_STORES, Q_INDIRECT, Q_NONE };

struct enc {
	int8_t fixed;              /* -1: general counter encoding */
	uint16_t code;
	uint8_t umask;
	uint8_t q;
	uint8_t umask_ext;         /* the list's UMaskExt: IA32_PERFEVTSELx bits 47:40 */
};

static const struct enc intel[] = {
	{ 0, 0, 0, Q_INST, 0 }, { 1, 0, 0, Q_CYC, 0 }, { 2, 0, 0, Q_REF, 0 }, { 3, 0, 0, Q_SLOTS, 0 },
	{ -1, 0x3C, 0x00, Q_CYC, 0 }, { -1, 0x3C, 0x01, Q_REF, 0 }, { -1, 0xC0, 0x00, Q_INST, 0 },
	{ -1, 0xC4, 0x00, Q_BR, 0 }, { -1, 0xC5, 0x00, Q_MISP, 0 },
};

/* BR_INST_RETIRED (C4H) umasks by core (the vendors' event lists):
 * Westmere: 01H CONDITIONAL, 02H NEAR_CALL, 04H ALL_BRANCHES only
 * (westmereep-sp/pipeline.json); Sandy Bridge..Skylake: 01H CONDITIONAL,
 * 02H NEAR_CALL, 08H NEAR_RETURN, 10H NOT_TAKEN, 20H NEAR_TAKEN; Ice Lake and later big cores: 01H
 * COND_TAKEN, 11H COND, 10H COND_NTAKEN, the rest as before; Atom cores
 * (Gracemont..Skymont): 7EH COND, FEH COND_TAKEN, F9H NEAR_CALL, F7H
 * NEAR_RETURN, C0H NEAR_TAKEN. */
static const struct enc intel_wsm[] = {
	{ -1, 0xC4, 0x01, Q_COND, 0 }, { -1, 0xC4, 0x02, Q_CALL, 0 }, { -1, 0xC4, 0x04, Q_BR, 0 },
};
static const struct enc intel_big_old[] = {
	{ -1, 0xC4, 0x01, Q_COND, 0 }, { -1, 0xC4, 0x02, Q_CALL, 0 }, { -1, 0xC4, 0x08, Q_RET, 0 },
	{ -1, 0xC4, 0x10, Q_COND_NTAKEN, 0 }, { -1, 0xC4, 0x20, Q_NEAR_TAKEN, 0 },
};
static const struct enc intel_big_new[] = {
	{ -1, 0xC4, 0x01, Q_COND_TAKEN, 0 }, { -1, 0xC4, 0x11, Q_COND, 0 }, { -1, 0xC4, 0x02, Q_CALL, 0 },
	{ -1, 0xC4, 0x08, Q_RET, 0 }, { -1, 0xC4, 0x10, Q_COND_NTAKEN, 0 }, { -1, 0xC4, 0x20, Q_NEAR_TAKEN, 0 },
};
/* Lion Cove (the Lunar Lake / Arrow Lake P-core list, lunarlake_lioncove_core.json)
 * splits the conditional branches by direction with the second unit mask
 * (UMaskExt, IA32_PERFEVTSELx bits 47:40; Linux perf programs it as
 * ARCH_PERFMON_EVENTSEL_UMASK2, arch/x86/include/asm/perf_event.h, on
 * parts that enumerate it): COND_TAKEN is 01H with UMaskExt 01H, COND 11H
 * with UMaskExt 01H; 01H with UMaskExt 00H is COND_TAKEN_BWD and 00H with
 * UMaskExt 01H COND_TAKEN_FWD. The kernels declare no branch direction, so
 * the two directional ones are not modelled (not counted as COND_TAKEN, as
 * Golden Cove's 01H is); NOT_TAKEN, calls, returns, near taken and
 * INDIRECT keep Golden Cove's unit masks. */
static const struct enc intel_lnc[] = {
	{ -1, 0xC4, 0x01, Q_COND_TAKEN, 0x01 }, { -1, 0xC4, 0x11, Q_COND, 0x01 },
	{ -1, 0xC4, 0x02, Q_CALL, 0 }, { -1, 0xC4, 0x08, Q_RET, 0 },
	{ -1, 0xC4, 0x10, Q_COND_NTAKEN, 0 }, { -1, 0xC4, 0x20, Q_NEAR_TAKEN, 0 },
	{ -1, 0xC4, 0x80, Q_INDIRECT, 0 },
};

/* BR_INST_RETIRED.INDIRECT C4H/80H (indirect near jumps and calls, not
 * returns: the kernels' "indirect") on Ice Lake, Golden Cove and Redwood
 * Cove (their lists); on the Atom cores C4H/80H is TAKEN, not this. */
static const struct enc intel_indirect[] = { { -1, 0xC4, 0x80, Q_INDIRECT, 0 } };

/* TOPDOWN.SLOTS_P A4H/01H, the architectural Topdown Slots event (SDM vol.
 * 3B Table 20-1; fixed counter 3 counts the same, Table 20-2): the model's
 * SLOTS, on the cores whose lists have it (Ice Lake, Golden Cove, Redwood
 * Cove, Lion Cove). */
static const struct enc intel_slots_p[] = { { -1, 0xA4, 0x01, Q_SLOTS, 0 } };

/* Retired loads and stores, D0H/81H and D0H/82H: MEM_INST_RETIRED.ALL_LOADS
 * / ALL_STORES on Skylake..Lion Cove, MEM_UOPS_RETIRED.ALL_LOADS / ALL_STORES
 * on the Atom cores (one load or store uop per such instruction in the
 * kernels). The model counts the kernel's declared loads and stores: the
 * instructions that read / write data memory, CALL's push and RET's pop of
 * the return address included, as cachegrind's Dr and Dw count them
 * (tests/suite/36-kernel-census.sh). Whether silicon counts RET's stack
 * read among ALL_LOADS is not checked here (kernels/memory.c): a part that
 * does not would differ by one per return, which the atlas shows as a
 * slope the declared loads do not match on call-ret. */
static const struct enc intel_mem[] = {
	{ -1, 0xD0, 0x81, Q_LOADS, 0 }, { -1, 0xD0, 0x82, Q_STORES, 0 },
};

static const struct enc intel_atom[] = {
	{ -1, 0xC4, 0x7E, Q_COND, 0 }, { -1, 0xC4, 0xFE, Q_COND_TAKEN, 0 }, { -1, 0xC4, 0xF9, Q_CALL, 0 },
	{ -1, 0xC4, 0xF7, Q_RET, 0 }, { -1, 0xC4, 0xC0, Q_NEAR_TAKEN, 0 },
};

static const struct enc uops_hsw_skl[] = {
	{ -1, 0xC2, 0x02, Q_UOPS_FUSED, 0 }, { -1, 0x0E, 0x01, Q_UOPS_FUSED, 0 }, { -1, 0xC2, 0x04, Q_COND, 0 },
};
static const struct enc uops_icl[] = {
	{ -1, 0xC2, 0x02, Q_UOPS_FUSED, 0 }, { -1, 0x0E, 0x01, Q_UOPS_FUSED, 0 },
};
static const struct enc uops_glc_rwc[] = {
	{ -1, 0xC2, 0x02, Q_UOPS_FUSED, 0 }, { -1, 0xAE, 0x01, Q_UOPS_FUSED, 0 }, { -1, 0xC0, 0x10, Q_COND, 0 },
};
static const struct enc uops_lnc[] = {
	{ -1, 0xC2, 0x02, Q_UOPS_FUSED, 0 }, { -1, 0xAE, 0x01, Q_UOPS_FUSED, 0 }, { -1, 0xC0, 0x30, Q_COND, 0 },
};
static const struct enc uops_atom[] = {
	{ -1, 0xC2, 0x00, Q_UOPS_UNFUSED, 0 }, { -1, 0x0E, 0x00, Q_UOPS_UNFUSED, 0 },
	/* architectural Topdown Retiring (SDM bit 11, C2H/02H): the retired
	 * slots, one per uop on these cores (so a defect on it is visible to
	 * --validate/--bring-up over the kernels) */
	{ -1, 0xC2, 0x02, Q_UOPS_UNFUSED, 0 },
};

static const struct enc amd[] = {
	{ -1, 0x076, 0x00, Q_CYC, 0 }, { -1, 0x0C0, 0x00, Q_INST, 0 }, { -1, 0x0C2, 0x00, Q_BR, 0 },
	{ -1, 0x0C3, 0x00, Q_MISP, 0 }, { -1, 0x0C4, 0x00, Q_TAKEN, 0 }, { -1, 0x0C8, 0x00, Q_RET, 0 },
};

static uint64_t value(const struct bt_sim_kernel_model *k, enum q q)
{
	double ipc = k->ipc > 0 ? k->ipc : 1.0;
	uint64_t cycles = (uint64_t)((double)k->instructions / ipc + 0.5);

	switch (q) {
	case Q_INST: return k->instructions;
	case Q_BR: return k->branches;
	case Q_MISP: return (k->cond_not_taken ? 1 : 0) + k->random_cond / 2;
	case Q_CYC: case Q_REF: return cycles;
	case Q_SLOTS: return (k->width ? k->width : 4) * cycles;
	case Q_TAKEN:
		return k->cond_taken + k->jmp_direct + k->near_calls + k->near_returns + k->indirect;
	case Q_RET: return k->near_returns;
	case Q_CALL: return k->near_calls;
	case Q_COND: return k->cond;
	case Q_COND_TAKEN: return k->cond_taken;
	case Q_COND_NTAKEN: return k->cond_not_taken;
	case Q_NEAR_TAKEN: return value(k, Q_TAKEN);
	case Q_UOPS_FUSED: return k->instructions - (k->cond < k->instructions ? k->cond : 0);
	case Q_UOPS_UNFUSED: return k->instructions;
	case Q_LOADS: return k->loads;
	case Q_STORES: return k->stores;
	case Q_INDIRECT: return k->indirect;
	case Q_NONE: return 0;
	}
	return 0;
}

#define N(t) (BT_ARRAY_SIZE(t))

static size_t add(const struct bt_sim_config *cfg, const struct bt_sim_kernel_model *k,
		  const struct enc *t, size_t n, struct bt_sim_count *out, size_t m)
{
	for (size_t i = 0; i < n && m < BT_SIM_KERNEL_MAX_COUNTS; i++) {
		if (t[i].fixed >= (int)cfg->num_fixed)
			continue;
		memset(&out[m], 0, sizeof(out[m]));
		out[m].ev.name = "kernel";
		out[m].ev.source = BT_SRC_PMC;
		out[m].ev.fixed = t[i].fixed >= 0 ? t[i].fixed : BT_EV_NO_FIXED;
		out[m].ev.code = t[i].code;
		out[m].ev.umask = t[i].umask;
		out[m].ev.umask_ext = t[i].umask_ext;
		out[m].count = value(k, (enum q)t[i].q);
		m++;
	}
	return m;
}

size_t bt_sim_kernel_counts(const struct bt_sim_config *cfg, const struct bt_sim_kernel_model *k,
			    struct bt_sim_count *out)
{
	if (cfg->vendor == BT_VENDOR_AMD)
		return add(cfg, k, amd, N(amd), out, 0);
	size_t m = add(cfg, k, intel, N(intel), out, 0);
	switch (cfg->family) {
	case BT_SIM_FAM_WSM:
		return add(cfg, k, intel_wsm, N(intel_wsm), out, m);
	case BT_SIM_FAM_WSM_BDW:
		m = add(cfg, k, uops_icl, N(uops_icl), out, m);
		return add(cfg, k, intel_big_old, N(intel_big_old), out, m);
	case BT_SIM_FAM_SKL:
		m = add(cfg, k, uops_hsw_skl, N(uops_hsw_skl), out, m);
		m = add(cfg, k, intel_mem, N(intel_mem), out, m);
		return add(cfg, k, intel_big_old, N(intel_big_old), out, m);
	case BT_SIM_FAM_ICL:
		m = add(cfg, k, uops_icl, N(uops_icl), out, m);
		m = add(cfg, k, intel_mem, N(intel_mem), out, m);
		m = add(cfg, k, intel_slots_p, N(intel_slots_p), out, m);
		m = add(cfg, k, intel_indirect, N(intel_indirect), out, m);
		return add(cfg, k, intel_big_new, N(intel_big_new), out, m);
	case BT_SIM_FAM_GLC:
	case BT_SIM_FAM_RWC:
		m = add(cfg, k, uops_glc_rwc, N(uops_glc_rwc), out, m);
		m = add(cfg, k, intel_mem, N(intel_mem), out, m);
		m = add(cfg, k, intel_slots_p, N(intel_slots_p), out, m);
		m = add(cfg, k, intel_indirect, N(intel_indirect), out, m);
		return add(cfg, k, intel_big_new, N(intel_big_new), out, m);
	case BT_SIM_FAM_LNC:
		m = add(cfg, k, uops_lnc, N(uops_lnc), out, m);
		m = add(cfg, k, intel_mem, N(intel_mem), out, m);
		m = add(cfg, k, intel_slots_p, N(intel_slots_p), out, m);
		return add(cfg, k, intel_lnc, N(intel_lnc), out, m);
	case BT_SIM_FAM_ATOM:
		m = add(cfg, k, uops_atom, N(uops_atom), out, m);
		m = add(cfg, k, intel_mem, N(intel_mem), out, m);
		return add(cfg, k, intel_atom, N(intel_atom), out, m);
	default:
		return m; /* Core 2, Nehalem: the architectural events only */
	}
}

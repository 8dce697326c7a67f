/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's Intel registers (SDM vol. 3B ch. 20, vol. 4 Table 2-2
 * "IA-32 Architectural MSRs"). Which access faults is decided here; the
 * comments give the rule each check models. Register facts come from
 * arch/sim/sim-regs.h only (never from the driver's pmu/msr.h).
 */
#include <string.h>

#include "arch/sim/sim-internal.h"

/* AnyThread (IA32_PERFEVTSELx[21], FIXED_CTR_CTRL bit 4i+2) exists from v3
 * (SDM 20.2.3). When CPUID.0AH:EDX[15] reports it deprecated (SDM 20.2.5),
 * no manual text says a write faults, so the sim accepts the bit and ignores
 * it (it counts the thread only); a driver relying on it gets wrong counts. */
static bool any_writable(const struct bt_sim_config *c)
{
	return c->version >= 3;
}

/* Bits a WRMSR to IA32_PERFEVTSELx may set (SDM Figure 20-1 and 20-6; v6
 * UMASK2/EQ per CPUID.23H). Bit 19 (PC) is kept writable: since Sandy Bridge
 * it is "reserved (not writeable)" with no #GP documented. */
static uint64_t evtsel_valid(const struct bt_sim_config *c)
{
	uint64_t v = 0xFFFFFFFFull;
	if (!any_writable(c))
		v &= ~SIM_SEL_ANY;
	if (c->umask2_eq)
		v |= SIM_SEL_EQ | (0xFFull << SIM_SEL_UMASK2_SHIFT);
	return v;
}

static uint64_t fixed_ctrl_valid(const struct bt_sim *sim)
{
	uint64_t per = SIM_FIX_OS | SIM_FIX_USR | SIM_FIX_PMI;
	if (any_writable(&sim->cfg))
		per |= SIM_FIX_ANY;
	uint64_t v = 0;
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		if (bt_sim_fixed_exists(sim, i))
			v |= per << SIM_FIX_SHIFT(i);
	/* METRICS_CLEAR_EN (SDM vol. 2B RDPMC), whatever AnyThread does. */
	if (sim->cfg.rdpmc_metrics_clear && bt_sim_fixed_exists(sim, 3))
		v |= SIM_FIX_METRICS_CLEAR_EN;
	return v;
}

/* The counter bits of GLOBAL_CTRL / STATUS / RESET / SET. */
static uint64_t counter_bits(const struct bt_sim *sim)
{
	uint64_t v = bt_sim_gp_mask(sim) | ((uint64_t)bt_sim_fixed_mask(sim) << SIM_GLOBAL_FIXED_SHIFT);
	if (sim->cfg.perf_metrics)
		v |= SIM_GLOBAL_PM;
	return v;
}

/* IA32_PERF_GLOBAL_OVF_CTRL (v2, v3) / IA32_PERF_GLOBAL_STATUS_RESET (v4+):
 * SDM vol. 4 Table 2-2. On v3 the sim accepts 55 (Broadwell has Intel PT)
 * and 61 (from 06_2EH), as later v3 parts do. */
static uint64_t status_reset_valid(const struct bt_sim *sim)
{
	uint8_t v = sim->cfg.version;
	return counter_bits(sim) | (v >= 4 ? SIM_STATUS_RESET_OTHER
				    : v == 3 ? SIM_OVF_CTRL_OTHER : SIM_OVF_CTRL_OTHER_V2);
}

/* IA32_PERF_GLOBAL_STATUS_SET (v4+): no bit 63, CondChgd cannot be set. */
static uint64_t status_set_valid(const struct bt_sim *sim)
{
	return counter_bits(sim) | SIM_STATUS_SET_OTHER;
}

/* IA32_PEBS_ENABLE: before v5, PEBS_EN_PMCn in bits 3:0 and the
 * load-latency enables LL_EN_PMCn in 35:32 (SDM "Load Latency Performance
 * Monitoring Facility"); from v5 (extended PEBS) a bit per general counter
 * and 32 + i per fixed counter (Linux intel_pmu_pebs_enable sets 32 + idx
 * for load latency only when version < 5). Other bits: reserved. */
static uint64_t pebs_enable_valid(const struct bt_sim *sim)
{
	if (sim->cfg.version < 5) {
		uint64_t low = bt_sim_gp_mask(sim) & 0xF;
		return low | (low << 32);
	}
	return bt_sim_gp_mask(sim) | ((uint64_t)bt_sim_fixed_mask(sim) << 32);
}

/* PEBS exists in the sim where the load-latency facility does (a PEBS
 * facility): IA32_PEBS_ENABLE is a register there and #GP elsewhere,
 * IA32_MISC_ENABLE[12] says which, and made-up CPUID reports DS. */
static bool pebs(const struct bt_sim_config *c)
{
	return c->ldlat;
}

static bool canonical48(uint64_t a)
{
	uint64_t top = a >> 47;
	return top == 0 || top == (UINT64_MAX >> 47);
}

/* IA32_PERF_GLOBAL_INUSE as the SDM defines it (sim-regs.h). */
static uint64_t global_inuse(const struct bt_sim *sim)
{
	const struct bt_sim_regs *r = &sim->regs;
	uint64_t v = 0;
	for (unsigned i = 0; i < BT_SIM_MAX_GP; i++) {
		if (!bt_sim_gp_exists(sim, i))
			continue;
		if (r->evtsel[i] & 0xFF)
			v |= 1ull << i;
		if (r->evtsel[i] & SIM_SEL_INT)
			v |= SIM_INUSE_PMI;
	}
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++) {
		if (!bt_sim_fixed_exists(sim, i))
			continue;
		uint64_t field = (r->fixed_ctrl >> SIM_FIX_SHIFT(i)) & 0xF;
		if (field & (SIM_FIX_OS | SIM_FIX_USR))
			v |= 1ull << (SIM_GLOBAL_FIXED_SHIFT + i);
		if (field & SIM_FIX_PMI)
			v |= SIM_INUSE_PMI;
	}
	if (r->pebs_enable & 0xF)
		v |= SIM_INUSE_PMI;
	return v;
}

static uint64_t perf_capabilities(const struct bt_sim_config *c)
{
	uint64_t v = 0x4C5; /* LBR format 5, PEBS trap, PEBS arch regs, record format 4 */
	if (c->full_width)
		v |= SIM_CAP_FW_WRITE;
	if (c->perf_metrics && !c->perf_cap_pm_reads_zero)
		v |= SIM_CAP_PERF_METRICS;
	if (c->rdpmc_metrics_clear)
		v |= SIM_CAP_RDPMC_METRICS_CLEAR;
	if (c->freeze_while_smm)
		v |= SIM_CAP_SMM_FREEZE;
	if (c->pebs_timing)
		v |= SIM_CAP_PEBS_BASELINE | SIM_CAP_PEBS_TIMING;
	return v;
}

/* The IA32_DEBUGCTL bits this configuration implements (sim-regs.h). The
 * sim models no CPU without PDCM and perfmon v2, so bits 11 and 12 need only
 * PDCM; bit 13 is Nehalem and later (all but the Core 2 class). */
static uint64_t debugctl_valid(const struct bt_sim_config *c)
{
	uint64_t v = SIM_DBG_LBR | SIM_DBG_BTF | SIM_DBG_TR_BTS_BITS;
	if (c->pdcm && c->version > 1)
		v |= SIM_DBG_FREEZE_LBRS_ON_PMI | SIM_DBG_FREEZE_PERFMON_ON_PMI;
	if (c->family != BT_SIM_FAM_CORE2)
		v |= SIM_DBG_ENABLE_UNCORE_PMI;
	if (c->freeze_while_smm)
		v |= SIM_DBG_FREEZE_WHILE_SMM;
	return v;
}
/* Counter writes. IA32_PMCx: "only the lower 32 bits are written; bits
 * [width-1:32] are sign-extended from bit 31" (SDM 20.2.6). IA32_A_PMCx and
 * IA32_FIXED_CTRx write the full width; bits beyond the width are reserved
 * and must be written as zeros (SDM 20.4.1: #GP modelled). */
static bt_status write_counter(uint64_t *reg, uint64_t value, unsigned width, bool sign_extend32)
{
	uint64_t mask = sim_width_mask(width);
	if (sign_extend32) {
		*reg = (uint64_t)(int64_t)(int32_t)(uint32_t)value & mask;
		return BT_OK;
	}
	if (value & ~mask)
		return BT_ERR_FAULT;
	*reg = value;
	return BT_OK;
}

/* Which general counter an MSR addresses, and how. */
enum gp_kind { GP_NONE, GP_SEL, GP_CTR, GP_ACTR, GP_V6_SEL, GP_V6_CTR };

static int gp_decode(const struct bt_sim *sim, uint32_t msr, enum gp_kind *kind)
{
	const struct bt_sim_config *c = &sim->cfg;
	int i = -1;
	*kind = GP_NONE;
	/* The architectural IA32_PMC0-7 / PERFEVTSEL0-7 / A_PMC0-7 (SDM vol. 4
	 * Table 2-2): nothing at 0xC9, 0x18E, 0x4C9 is a counter. */
	if (msr >= SIM_IA32_PMC0 && msr < SIM_IA32_PMC0 + SIM_LEGACY_GP_MAX) {
		i = (int)(msr - SIM_IA32_PMC0);
		*kind = GP_CTR;
	} else if (msr >= SIM_IA32_PERFEVTSEL0 && msr < SIM_IA32_PERFEVTSEL0 + SIM_LEGACY_GP_MAX) {
		i = (int)(msr - SIM_IA32_PERFEVTSEL0);
		*kind = GP_SEL;
	} else if (msr >= SIM_IA32_A_PMC0 && msr < SIM_IA32_A_PMC0 + SIM_LEGACY_GP_MAX) {
		i = (int)(msr - SIM_IA32_A_PMC0);
		*kind = GP_ACTR;
	} else if (sim_v6_range(c) && msr >= SIM_V6_GP0_CTR &&
		   msr < SIM_V6_GP0_CTR + SIM_V6_STEP * BT_SIM_MAX_GP) {
		uint32_t off = msr - SIM_V6_GP0_CTR;
		i = (int)(off / SIM_V6_STEP);
		if (off % SIM_V6_STEP == 0)
			*kind = GP_V6_CTR;
		else if (off % SIM_V6_STEP == SIM_V6_GP0_CFG_A - SIM_V6_GP0_CTR)
			*kind = GP_V6_SEL;
		else
			return -1; /* CFG_B / CFG_C: not modelled */
	}
	if (i < 0 || !bt_sim_gp_exists(sim, (unsigned)i)) {
		*kind = GP_NONE;
		return -1;
	}
	return i;
}

static int fixed_decode(const struct bt_sim *sim, uint32_t msr)
{
	int i = -1;
	if (msr >= SIM_IA32_FIXED_CTR0 && msr < SIM_IA32_FIXED_CTR0 + BT_SIM_MAX_FIXED)
		i = (int)(msr - SIM_IA32_FIXED_CTR0);
	else if (sim_v6_range(&sim->cfg) && msr >= SIM_V6_FX0_CTR &&
		 msr < SIM_V6_FX0_CTR + SIM_V6_STEP * BT_SIM_MAX_FIXED &&
		 (msr - SIM_V6_FX0_CTR) % SIM_V6_STEP == 0)
		i = (int)((msr - SIM_V6_FX0_CTR) / SIM_V6_STEP);
	return i >= 0 && bt_sim_fixed_exists(sim, (unsigned)i) ? i : -1;
}

static bt_status intel_rdmsr(struct bt_sim *sim, uint32_t msr, uint64_t *ret)
{
	const struct bt_sim_config *c = &sim->cfg;
	struct bt_sim_regs *r = &sim->regs;
	enum gp_kind kind;
	int i = gp_decode(sim, msr, &kind);
	if (i >= 0) {
		if (kind == GP_ACTR && !c->full_width)
			return BT_ERR_FAULT; /* IA32_A_PMCx exists iff PERF_CAPABILITIES[13] */
		*ret = (kind == GP_SEL || kind == GP_V6_SEL) ? r->evtsel[i] : r->ctr[i];
		return BT_OK;
	}
	if ((i = fixed_decode(sim, msr)) >= 0) {
		*ret = r->fixed_ctr[i];
		return BT_OK;
	}
	switch (msr) {
	case SIM_IA32_PERF_CAPABILITIES:
		if (!c->pdcm)
			return BT_ERR_FAULT; /* exists iff CPUID.01H:ECX[15] */
		*ret = perf_capabilities(c);
		return BT_OK;
	case SIM_IA32_FIXED_CTR_CTRL: *ret = r->fixed_ctrl; return BT_OK;
	case SIM_IA32_PERF_GLOBAL_CTRL: *ret = r->global_ctrl; return BT_OK;
	case SIM_IA32_PERF_GLOBAL_STATUS: *ret = r->global_status; return BT_OK;
	case SIM_IA32_PERF_GLOBAL_STATUS_RESET:
		*ret = 0; /* write-1-to-clear; reads 0 */
		return BT_OK;
	case SIM_IA32_PERF_GLOBAL_STATUS_SET:
		if (c->version < 4)
			return BT_ERR_FAULT;
		*ret = 0;
		return BT_OK;
	case SIM_MSR_PERF_METRICS:
		if (!c->perf_metrics)
			return BT_ERR_FAULT;
		*ret = r->perf_metrics;
		return BT_OK;
	case SIM_MSR_OFFCORE_RSP_0:
	case SIM_MSR_OFFCORE_RSP_1:
		if (!c->offcore)
			return BT_ERR_FAULT;
		*ret = r->offcore[msr - SIM_MSR_OFFCORE_RSP_0];
		return BT_OK;
	case SIM_IA32_DS_AREA:
		if (!pebs(c))
			return BT_ERR_FAULT;
		*ret = r->ds_area;
		return BT_OK;
	case SIM_MSR_PEBS_DATA_CFG:
		if (!c->pebs_timing)
			return BT_ERR_FAULT; /* exists with adaptive PEBS (PERF_CAPABILITIES[14]) */
		*ret = r->pebs_data_cfg;
		return BT_OK;
	case SIM_IA32_PEBS_ENABLE:
		if (!pebs(c))
			return BT_ERR_FAULT;
		*ret = r->pebs_enable;
		return BT_OK;
	case SIM_IA32_PERF_GLOBAL_INUSE:
		if (c->version < 4)
			return BT_ERR_FAULT; /* architectural perfmon v4+ */
		*ret = global_inuse(sim);
		return BT_OK;
	case SIM_IA32_MISC_ENABLE:
		*ret = SIM_MISC_PERFMON_AVAIL | SIM_MISC_BTS_UNAVAIL |
		       (pebs(c) ? 0 : SIM_MISC_PEBS_UNAVAIL);
		return BT_OK;
	case SIM_MSR_PEBS_LD_LAT:
		if (!c->ldlat)
			return BT_ERR_FAULT;
		*ret = r->ldlat;
		return BT_OK;
	case SIM_MSR_PEBS_FRONTEND:
		if (!c->frontend)
			return BT_ERR_FAULT;
		*ret = r->frontend;
		return BT_OK;
	case SIM_MSR_SMI_COUNT:
		if (!c->smi_count)
			return BT_ERR_FAULT;
		*ret = sim->smi;
		return BT_OK;
	case SIM_IA32_MPERF:
	case SIM_IA32_APERF:
		if (!c->aperf_mperf)
			return BT_ERR_FAULT;
		*ret = msr == SIM_IA32_MPERF ? sim->mperf : sim->aperf;
		return BT_OK;
	case SIM_IA32_DEBUGCTL:
		*ret = r->debugctl;
		return BT_OK;
	case SIM_MSR_TSX_FORCE_ABORT:
		if (!c->tsx_force_abort)
			return BT_ERR_FAULT;
		*ret = r->tsx_force_abort;
		return BT_OK;
	case SIM_MSR_PLATFORM_INFO:
		/* Its other fields (turbo and TDP programmability, the minimum
		 * and efficiency ratios) are not modelled: they read 0. */
		if (!c->part || !c->part->base_ratio)
			return BT_ERR_FAULT;
		*ret = (uint64_t)c->part->base_ratio << 8;
		return BT_OK;
	}
	return BT_ERR_FAULT; /* no such MSR */
}

static bt_status write_selector(struct bt_sim *sim, unsigned i, uint64_t value)
{
	struct bt_sim_regs *r = &sim->regs;
	if (value & ~evtsel_valid(&sim->cfg))
		return BT_ERR_FAULT;
	if (((r->global_ctrl >> i) & 1) && ((r->evtsel[i] | value) & SIM_SEL_EN) &&
	    r->evtsel[i] != value)
		bt_sim_violation(sim, "IA32_PERFEVTSEL%u rewritten while enabled in "
				 "IA32_PERF_GLOBAL_CTRL (counting during programming)", i);
	r->evtsel[i] = value;
	return BT_OK;
}

static bt_status write_fixed(struct bt_sim *sim, unsigned i, uint64_t value)
{
	bt_status st = write_counter(&sim->regs.fixed_ctr[i], value, sim->cfg.fixed_width, false);
	if (st == BT_OK)
		bt_sim_note_fixed_write(sim, i);
	/* SDM 20.3.9.3 asks software to write FIXED_CTR3 and PERF_METRICS
	 * together (SLOTS first); it does not say whether hardware clears
	 * PERF_METRICS when FIXED_CTR3 alone is written. Recent KVM emulates
	 * "clearing fixed counter 3 clears PERF_METRICS as well"; the sim
	 * keeps the stale fractions instead, the pessimistic reading, so that
	 * a driver skipping the PERF_METRICS write is caught. A driver that
	 * follows the SDM sequence is correct under both readings. */
	if (st == BT_OK && i == 3 && sim->cfg.perf_metrics)
		sim->pm_stale = true; /* until PERF_METRICS is written too */
	return st;
}

static bt_status intel_wrmsr(struct bt_sim *sim, uint32_t msr, uint64_t value)
{
	const struct bt_sim_config *c = &sim->cfg;
	struct bt_sim_regs *r = &sim->regs;
	enum gp_kind kind;
	int i = gp_decode(sim, msr, &kind);
	switch (kind) {
	case GP_SEL:
	case GP_V6_SEL:
		return write_selector(sim, (unsigned)i, value);
	case GP_CTR:
	case GP_ACTR:
	case GP_V6_CTR: {
		if (kind == GP_ACTR && !c->full_width)
			return BT_ERR_FAULT; /* IA32_A_PMCx exists iff PERF_CAPABILITIES[13] */
		/* No manual text found on whether the v6 counter MSRs sign-extend
		 * 32-bit writes; modelled like the legacy pair: full width when
		 * PERF_CAPABILITIES[13], else IA32_PMCx semantics. */
		bool sign_extend = kind == GP_CTR || (kind == GP_V6_CTR && !c->full_width);
		/* fw-truncates defect: the alias's upper bits are lost. */
		if (kind == GP_ACTR && bt_sim_defect(sim, BT_SIM_DEFECT_FW_TRUNCATES))
			value &= 0xFFFFFFFFull;
		bt_status st = write_counter(&r->ctr[i], value, c->gp_width, sign_extend);
		if (st == BT_OK) {
			r->ctr[i] &= bt_sim_gp_ctr_mask(sim, (unsigned)i); /* narrow-counter */
			bt_sim_note_gp_write(sim, (unsigned)i);
		}
		return st;
	}
	case GP_NONE:
		break;
	}
	if ((i = fixed_decode(sim, msr)) >= 0)
		return write_fixed(sim, (unsigned)i, value);
	switch (msr) {
	case SIM_IA32_FIXED_CTR_CTRL:
		if (value & ~fixed_ctrl_valid(sim))
			return BT_ERR_FAULT;
		r->fixed_ctrl = value;
		return BT_OK;
	case SIM_IA32_PERF_GLOBAL_CTRL:
		if (value & ~counter_bits(sim))
			return BT_ERR_FAULT;
		if ((value & SIM_GLOBAL_PM) && !(r->global_ctrl & SIM_GLOBAL_PM) && sim->pm_stale)
			bt_sim_violation(sim, "PERF_METRICS enabled after IA32_FIXED_CTR3 was "
					 "written without resetting MSR_PERF_METRICS with it");
		r->global_ctrl = value;
		return BT_OK;
	case SIM_IA32_PERF_GLOBAL_STATUS_RESET:
		if (value & ~status_reset_valid(sim))
			return BT_ERR_FAULT;
		r->global_status &= ~value;
		return BT_OK;
	case SIM_IA32_PERF_GLOBAL_STATUS_SET:
		if (c->version < 4 || (value & ~status_set_valid(sim)))
			return BT_ERR_FAULT;
		r->global_status |= value;
		return BT_OK;
	case SIM_MSR_PERF_METRICS:
		if (!c->perf_metrics)
			return BT_ERR_FAULT;
		if (c->pm_fields == 4 && (value >> 32))
			return BT_ERR_FAULT; /* fields 4-7 do not exist on this part */
		if (bt_sim_defect(sim, BT_SIM_DEFECT_PM_STICKY))
			return BT_OK; /* pm-sticky defect: the write is lost */
		/* The fractions are relative to the current FIXED_CTR3: writing the
		 * pair (SLOTS first, then PERF_METRICS) sets the slot counts. */
		r->perf_metrics = value;
		for (int f = 0; f < 8; f++)
			sim->pm_acc[f] = r->fixed_ctr[3] * ((value >> (8 * f)) & 0xFF) / 255;
		sim->pm_stale = false;
		return BT_OK;
	case SIM_MSR_OFFCORE_RSP_0:
	case SIM_MSR_OFFCORE_RSP_1:
		if (!c->offcore)
			return BT_ERR_FAULT;
		/* The request/response bits are model specific; not checked. */
		r->offcore[msr - SIM_MSR_OFFCORE_RSP_0] = value;
		return BT_OK;
	case SIM_IA32_DS_AREA:
		/* a linear address: #GP unless canonical (SDM vol. 4 Table 2-2,
		 * IA32_DS_AREA; 48-bit linear addresses: bits 63:47 all equal) */
		if (!pebs(c) || !canonical48(value))
			return BT_ERR_FAULT;
		r->ds_area = value;
		return BT_OK;
	case SIM_MSR_PEBS_DATA_CFG:
		if (!c->pebs_timing || (value & ~SIM_DATACFG_VALID) || (value & SIM_DATACFG_GROUPS))
			return BT_ERR_FAULT; /* reserved bits; groups the sim does not model */
		r->pebs_data_cfg = value;
		return BT_OK;
	case SIM_IA32_PEBS_ENABLE:
		if (!pebs(c) || (value & ~pebs_enable_valid(sim)))
			return BT_ERR_FAULT;
		r->pebs_enable = value;
		return BT_OK;
	case SIM_MSR_PEBS_LD_LAT:
		if (!c->ldlat || (value >> 16))
			return BT_ERR_FAULT; /* [15:0] threshold, [63:16] reserved */
		r->ldlat = value;
		return BT_OK;
	case SIM_MSR_PEBS_FRONTEND:
		if (!c->frontend || (value & ~bt_sim_frontend_valid(c->family)))
			return BT_ERR_FAULT; /* see sim-tables.c */
		r->frontend = value;
		return BT_OK;
	case SIM_IA32_PERF_CAPABILITIES: /* read-only */
	case SIM_IA32_PERF_GLOBAL_STATUS: /* read-only */
	case SIM_MSR_SMI_COUNT: /* read-only */
	case SIM_IA32_PERF_GLOBAL_INUSE: /* read-only */
	case SIM_IA32_MISC_ENABLE: /* writes not modelled */
		return BT_ERR_FAULT;
	case SIM_IA32_MPERF:
	case SIM_IA32_APERF:
		if (!c->aperf_mperf)
			return BT_ERR_FAULT;
		if (msr == SIM_IA32_MPERF)
			sim->mperf = value;
		else
			sim->aperf = value;
		return BT_OK;
	case SIM_IA32_DEBUGCTL:
		if (value & ~debugctl_valid(c))
			return BT_ERR_FAULT; /* reserved bit, or bit 14 without PERF_CAPABILITIES[12] */
		r->debugctl = value;
		return BT_OK;
	case SIM_MSR_TSX_FORCE_ABORT:
		/* bit 1 (TSX_CPUID_CLEAR) exists only with RTM_ALWAYS_ABORT,
		 * which the sim does not model: reserved here */
		if (!c->tsx_force_abort || (value & ~SIM_TFA_RTM_FORCE_ABORT))
			return BT_ERR_FAULT;
		r->tsx_force_abort = value;
		return BT_OK;
	}
	return BT_ERR_FAULT;
}

/* RDPMC (SDM vol. 2B): ECX[30] selects the fixed counters, ECX[29] reads
 * PERF_METRICS (with the low bits 0); an index beyond the counters, or any
 * other ECX bit, is #GP. With FIXED_CTR_CTRL.METRICS_CLEAR_EN (bit 14) set,
 * the PERF_METRICS read also clears PERF_METRICS and fixed counter 3 after
 * the read. */
static bt_status intel_rdpmc(struct bt_sim *sim, uint32_t ecx, uint64_t *ret)
{
	const struct bt_sim_config *c = &sim->cfg;
	uint32_t index = ecx & 0xFFFF;
	uint32_t type = ecx & ~0xFFFFu;
	if (type == 0) {
		if (!bt_sim_gp_exists(sim, index))
			return BT_ERR_FAULT;
		*ret = sim->regs.ctr[index];
		return BT_OK;
	}
	if (type == SIM_RDPMC_FIXED) {
		if (!bt_sim_fixed_exists(sim, index))
			return BT_ERR_FAULT;
		*ret = sim->regs.fixed_ctr[index];
		/* rdpmc-fixed-gp defect: ECX[30] not decoded. */
		if (bt_sim_defect(sim, BT_SIM_DEFECT_RDPMC_FIXED_GP))
			*ret = bt_sim_gp_exists(sim, index) ? sim->regs.ctr[index] : 0;
		return BT_OK;
	}
	if (type == SIM_RDPMC_METRICS) {
		if (!c->perf_metrics || index != 0)
			return BT_ERR_FAULT;
		*ret = sim->regs.perf_metrics;
		if (c->rdpmc_metrics_clear && (sim->regs.fixed_ctrl & SIM_FIX_METRICS_CLEAR_EN)) {
			sim->regs.perf_metrics = 0;
			sim->regs.fixed_ctr[3] = 0;
			bt_sim_note_fixed_write(sim, 3);
			memset(sim->pm_acc, 0, sizeof(sim->pm_acc));
			sim->pm_stale = false;
		}
		return BT_OK;
	}
	return BT_ERR_FAULT;
}

const struct bt_sim_vendor bt_sim_intel_regs = {
	.vendor = BT_VENDOR_INTEL,
	.rdmsr = intel_rdmsr,
	.wrmsr = intel_wrmsr,
	.rdpmc = intel_rdpmc,
};

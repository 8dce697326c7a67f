/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's Intel registers (SDM vol. 3B ch. 20, vol. 4 table 2-2
 * "IA-32 Architectural MSRs"). Which write faults is decided here; see the
 * comments for the rule each check models.
 */
#include <string.h>

#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/sim-internal.h"

bool bt_sim_fixed_exists(const struct bt_sim *sim, unsigned i)
{
	const struct bt_sim_config *c = &sim->cfg;
	if (c->vendor != BT_VENDOR_INTEL || i >= BT_SIM_MAX_FIXED)
		return false;
	/* SDM vol. 2A CPUID.0AH: fixed counter i exists iff ECX[i] (v5+) or
	 * EDX[4:0] > i. */
	return i < c->num_fixed || (c->version >= 5 && ((c->fixed_bitmap >> i) & 1));
}

static uint32_t fixed_mask(const struct bt_sim *sim)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		if (bt_sim_fixed_exists(sim, i))
			m |= 1u << i;
	return m;
}

static bool any_allowed(const struct bt_sim_config *c)
{
	/* AnyThread arrives with v3 (SDM 20.2.3) and is deprecated when
	 * CPUID.0AH:EDX[15] (SDM 20.2.5); the sim treats it as reserved then. */
	return c->version >= 3 && !c->any_deprecated;
}

/* Bits a WRMSR to IA32_PERFEVTSELx may set (SDM Figure 20-1 and 20-6; v6
 * UMASK2/EQ per CPUID.23H). Bit 19 (PC) is kept writable: since Sandy Bridge
 * it is "reserved (not writeable)" with no #GP documented. */
static uint64_t evtsel_valid(const struct bt_sim_config *c)
{
	uint64_t v = 0xFFFFFFFFull;
	if (!any_allowed(c))
		v &= ~EVTSEL_ANY;
	if (c->umask2_eq)
		v |= EVTSEL_EQ | (0xFFull << EVTSEL_UMASK2_SHIFT);
	return v;
}

static uint64_t fixed_ctrl_valid(const struct bt_sim *sim)
{
	uint64_t per = FIXED_CTRL_OS | FIXED_CTRL_USR | FIXED_CTRL_PMI;
	if (any_allowed(&sim->cfg))
		per |= FIXED_CTRL_ANY;
	uint64_t v = 0;
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		if (bt_sim_fixed_exists(sim, i))
			v |= per << FIXED_CTRL_SHIFT(i);
	return v;
}

static uint64_t global_ctrl_valid(const struct bt_sim *sim)
{
	uint64_t v = bt_width_mask(sim->cfg.num_gp) | ((uint64_t)fixed_mask(sim) << GLOBAL_FIXED_SHIFT);
	if (sim->cfg.perf_metrics)
		v |= GLOBAL_PERF_METRICS;
	return v;
}

static uint64_t global_ovf_valid(const struct bt_sim *sim)
{
	return global_ctrl_valid(sim) |
	       (sim->cfg.version >= 4 ? GLOBAL_OVF_OTHER_V4 : GLOBAL_OVF_OTHER_V2);
}

static uint64_t perf_capabilities(const struct bt_sim_config *c)
{
	uint64_t v = 0x4C5; /* LBR format 5, PEBS trap, PEBS arch regs, record format 4 */
	if (c->full_width)
		v |= PERF_CAP_FW_WRITE;
	if (c->perf_metrics)
		v |= PERF_CAP_PERF_METRICS;
	return v;
}

bool bt_sim_gp_enabled(const struct bt_sim *sim, unsigned i)
{
	uint64_t sel = sim->regs.evtsel[i];
	if (!(sel & EVTSEL_EN) || !(sel & (EVTSEL_OS | EVTSEL_USR)))
		return false;
	if (sim->cfg.vendor == BT_VENDOR_INTEL || sim->cfg.amd_v2)
		return (sim->regs.global_ctrl >> i) & 1;
	return true; /* AMD without PerfMonV2: PerfEvtSel.En alone */
}

bool bt_sim_fixed_enabled(const struct bt_sim *sim, unsigned i)
{
	if (!bt_sim_fixed_exists(sim, i))
		return false;
	uint64_t field = (sim->regs.fixed_ctrl >> FIXED_CTRL_SHIFT(i)) & 0xF;
	return (field & (FIXED_CTRL_OS | FIXED_CTRL_USR)) &&
	       ((sim->regs.global_ctrl >> (GLOBAL_FIXED_SHIFT + i)) & 1);
}

void bt_sim_add_gp(struct bt_sim *sim, unsigned i, uint64_t n)
{
	uint64_t mask = bt_width_mask(sim->cfg.gp_width);
	uint64_t old = sim->regs.ctr[i];
	sim->regs.ctr[i] = (old + n) & mask;
	/* Overflow: the count passed 2^width (at most once per window, which
	 * the driver relies on). GLOBAL_STATUS bit i (Intel, AMD PerfMonV2). */
	if (n > mask - old && (sim->cfg.vendor == BT_VENDOR_INTEL || sim->cfg.amd_v2))
		sim->regs.global_status |= 1ull << i;
}

void bt_sim_add_fixed(struct bt_sim *sim, unsigned i, uint64_t n)
{
	uint64_t mask = bt_width_mask(sim->cfg.fixed_width);
	uint64_t old = sim->regs.fixed_ctr[i];
	sim->regs.fixed_ctr[i] = (old + n) & mask;
	if (n > mask - old)
		sim->regs.global_status |= 1ull << (GLOBAL_FIXED_SHIFT + i);
}

/* Counter writes. IA32_PMCx: "only the lower 32 bits are written; bits
 * [width-1:32] are sign-extended from bit 31" (SDM 20.2.6). IA32_A_PMCx and
 * IA32_FIXED_CTRx write the full width; bits beyond the width are reserved
 * and must be written as zeros (SDM 20.4.1: #GP modelled). */
static bt_status write_counter(uint64_t *reg, uint64_t value, unsigned width, bool sign_extend32)
{
	uint64_t mask = bt_width_mask(width);
	if (sign_extend32) {
		*reg = (uint64_t)(int64_t)(int32_t)(uint32_t)value & mask;
		return BT_OK;
	}
	if (value & ~mask)
		return BT_ERR_FAULT;
	*reg = value;
	return BT_OK;
}

bt_status bt_sim_intel_rdmsr(struct bt_sim *sim, uint32_t msr, uint64_t *ret)
{
	const struct bt_sim_config *c = &sim->cfg;
	struct bt_sim_regs *r = &sim->regs;
	if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + c->num_gp) {
		*ret = r->ctr[msr - MSR_IA32_PMC0];
		return BT_OK;
	}
	if (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + c->num_gp) {
		if (!c->full_width)
			return BT_ERR_FAULT;
		*ret = r->ctr[msr - MSR_IA32_A_PMC0];
		return BT_OK;
	}
	if (msr >= MSR_IA32_PERFEVTSEL0 && msr < MSR_IA32_PERFEVTSEL0 + c->num_gp) {
		*ret = r->evtsel[msr - MSR_IA32_PERFEVTSEL0];
		return BT_OK;
	}
	if (msr >= MSR_IA32_FIXED_CTR0 && msr < MSR_IA32_FIXED_CTR0 + BT_SIM_MAX_FIXED) {
		if (!bt_sim_fixed_exists(sim, msr - MSR_IA32_FIXED_CTR0))
			return BT_ERR_FAULT;
		*ret = r->fixed_ctr[msr - MSR_IA32_FIXED_CTR0];
		return BT_OK;
	}
	switch (msr) {
	case MSR_IA32_PERF_CAPABILITIES:
		if (!c->pdcm)
			return BT_ERR_FAULT; /* exists iff CPUID.01H:ECX[15] */
		*ret = perf_capabilities(c);
		return BT_OK;
	case MSR_IA32_FIXED_CTR_CTRL: *ret = r->fixed_ctrl; return BT_OK;
	case MSR_IA32_PERF_GLOBAL_CTRL: *ret = r->global_ctrl; return BT_OK;
	case MSR_IA32_PERF_GLOBAL_STATUS: *ret = r->global_status; return BT_OK;
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		*ret = 0; /* write-1-to-clear; reads 0 */
		return BT_OK;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		if (c->version < 4)
			return BT_ERR_FAULT;
		*ret = 0;
		return BT_OK;
	case MSR_PERF_METRICS:
		if (!c->perf_metrics)
			return BT_ERR_FAULT;
		*ret = r->perf_metrics;
		return BT_OK;
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1:
		if (!c->offcore)
			return BT_ERR_FAULT;
		*ret = r->offcore[msr - MSR_OFFCORE_RSP_0];
		return BT_OK;
	case MSR_PEBS_LD_LAT:
		if (!c->ldlat)
			return BT_ERR_FAULT;
		*ret = r->ldlat;
		return BT_OK;
	case MSR_PEBS_FRONTEND:
		if (!c->frontend)
			return BT_ERR_FAULT;
		*ret = r->frontend;
		return BT_OK;
	case MSR_SMI_COUNT:
		if (!c->smi_count)
			return BT_ERR_FAULT;
		*ret = sim->smi;
		return BT_OK;
	case MSR_IA32_MPERF:
	case MSR_IA32_APERF:
		if (!c->aperf_mperf)
			return BT_ERR_FAULT;
		*ret = msr == MSR_IA32_MPERF ? sim->mperf : sim->aperf;
		return BT_OK;
	}
	return BT_ERR_FAULT; /* no such MSR */
}

static bool gp_enabled_globally(const struct bt_sim *sim, unsigned i)
{
	return (sim->regs.global_ctrl >> i) & 1;
}

bt_status bt_sim_intel_wrmsr(struct bt_sim *sim, uint32_t msr, uint64_t value)
{
	const struct bt_sim_config *c = &sim->cfg;
	struct bt_sim_regs *r = &sim->regs;
	if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + c->num_gp)
		return write_counter(&r->ctr[msr - MSR_IA32_PMC0], value, c->gp_width, true);
	if (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + c->num_gp) {
		if (!c->full_width)
			return BT_ERR_FAULT; /* IA32_A_PMCx exists iff PERF_CAPABILITIES[13] */
		return write_counter(&r->ctr[msr - MSR_IA32_A_PMC0], value, c->gp_width, false);
	}
	if (msr >= MSR_IA32_PERFEVTSEL0 && msr < MSR_IA32_PERFEVTSEL0 + c->num_gp) {
		unsigned i = msr - MSR_IA32_PERFEVTSEL0;
		if (value & ~evtsel_valid(c))
			return BT_ERR_FAULT;
		if (gp_enabled_globally(sim, i) && ((r->evtsel[i] | value) & EVTSEL_EN) &&
		    r->evtsel[i] != value)
			bt_sim_violation(sim, "IA32_PERFEVTSEL%u rewritten while enabled in "
					 "IA32_PERF_GLOBAL_CTRL (counting during programming)", i);
		r->evtsel[i] = value;
		return BT_OK;
	}
	if (msr >= MSR_IA32_FIXED_CTR0 && msr < MSR_IA32_FIXED_CTR0 + BT_SIM_MAX_FIXED) {
		unsigned i = msr - MSR_IA32_FIXED_CTR0;
		if (!bt_sim_fixed_exists(sim, i))
			return BT_ERR_FAULT;
		bt_status st = write_counter(&r->fixed_ctr[i], value, c->fixed_width, false);
		if (st == BT_OK && i == 3 && c->perf_metrics)
			sim->pm_stale = true; /* until PERF_METRICS is written too */
		return st;
	}
	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL:
		if (value & ~fixed_ctrl_valid(sim))
			return BT_ERR_FAULT;
		r->fixed_ctrl = value;
		return BT_OK;
	case MSR_IA32_PERF_GLOBAL_CTRL:
		if (value & ~global_ctrl_valid(sim))
			return BT_ERR_FAULT;
		if ((value & GLOBAL_PERF_METRICS) && !(r->global_ctrl & GLOBAL_PERF_METRICS) &&
		    sim->pm_stale)
			bt_sim_violation(sim, "PERF_METRICS enabled after IA32_FIXED_CTR3 was "
					 "written without resetting MSR_PERF_METRICS with it");
		r->global_ctrl = value;
		return BT_OK;
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		if (value & ~global_ovf_valid(sim))
			return BT_ERR_FAULT;
		r->global_status &= ~value;
		return BT_OK;
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		if (c->version < 4 || (value & ~global_ovf_valid(sim)))
			return BT_ERR_FAULT;
		r->global_status |= value;
		return BT_OK;
	case MSR_PERF_METRICS:
		if (!c->perf_metrics)
			return BT_ERR_FAULT;
		if (c->pm_fields == 4 && (value >> 32))
			return BT_ERR_FAULT; /* fields 4-7 do not exist on this part */
		/* The fractions are relative to the current FIXED_CTR3: writing the
		 * pair (SLOTS first, then PERF_METRICS) sets the slot counts. */
		r->perf_metrics = value;
		for (int f = 0; f < 8; f++)
			sim->pm_acc[f] = r->fixed_ctr[3] * ((value >> (8 * f)) & 0xFF) / 255;
		sim->pm_stale = false;
		return BT_OK;
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1:
		if (!c->offcore)
			return BT_ERR_FAULT;
		/* The request/response bits are model specific; not checked. */
		r->offcore[msr - MSR_OFFCORE_RSP_0] = value;
		return BT_OK;
	case MSR_PEBS_LD_LAT:
		if (!c->ldlat || (value >> 16))
			return BT_ERR_FAULT; /* [15:0] threshold, [63:16] reserved */
		r->ldlat = value;
		return BT_OK;
	case MSR_PEBS_FRONTEND:
		if (!c->frontend || (value >> 24))
			return BT_ERR_FAULT; /* [23:0] used (event type, latency, bubbles) */
		r->frontend = value;
		return BT_OK;
	case MSR_IA32_PERF_CAPABILITIES: /* read-only */
	case MSR_IA32_PERF_GLOBAL_STATUS: /* read-only */
	case MSR_SMI_COUNT: /* read-only */
		return BT_ERR_FAULT;
	case MSR_IA32_MPERF:
	case MSR_IA32_APERF:
		if (!c->aperf_mperf)
			return BT_ERR_FAULT;
		if (msr == MSR_IA32_MPERF)
			sim->mperf = value;
		else
			sim->aperf = value;
		return BT_OK;
	}
	return BT_ERR_FAULT;
}

/* RDPMC (SDM vol. 2B): ECX[30] selects the fixed counters, ECX[29] reads
 * PERF_METRICS (with the low bits 0); an index beyond the counters, or any
 * other ECX bit, is #GP. AMD: ECX is the counter number. */
bt_status bt_sim_rdpmc_value(struct bt_sim *sim, uint32_t ecx, uint64_t *ret)
{
	const struct bt_sim_config *c = &sim->cfg;
	if (c->vendor == BT_VENDOR_AMD) {
		if (ecx >= c->num_gp)
			return BT_ERR_FAULT;
		*ret = sim->regs.ctr[ecx];
		return BT_OK;
	}
	uint32_t index = ecx & 0xFFFF;
	uint32_t type = ecx & ~0xFFFFu;
	if (type == 0) {
		if (index >= c->num_gp)
			return BT_ERR_FAULT;
		*ret = sim->regs.ctr[index];
		return BT_OK;
	}
	if (type == (uint32_t)RDPMC_FIXED) {
		if (!bt_sim_fixed_exists(sim, index))
			return BT_ERR_FAULT;
		*ret = sim->regs.fixed_ctr[index];
		return BT_OK;
	}
	if (type == (uint32_t)RDPMC_PERF_METRICS) {
		if (!c->perf_metrics || index != 0)
			return BT_ERR_FAULT;
		*ret = sim->regs.perf_metrics;
		return BT_OK;
	}
	return BT_ERR_FAULT;
}

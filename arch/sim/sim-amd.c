/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's AMD registers (APM vol. 2 §13.2; PerfMonV2 from the
 * family 19h PPR). Legacy PerfEvtSel0-3/PerfCtr0-3 at 0xC0010000/4 always
 * exist; with the core extension they alias core counters 0-3, which also
 * appear at 0xC0010200 + 2n / + 2n + 1 together with counters 4 and 5.
 * Reserved PerfEvtSel bits (19, 21, 39:36, 63:42) must be zero: writing
 * them is modelled as #GP, as for any MBZ MSR bit (APM vol. 2 §1.3 "reserved,
 * MBZ"). Counters are 48 bits; bits 63:48 are modelled as MBZ too.
 */
#include "arch/sim/sim-internal.h"

/* Which counter a select (*is_ctr = false) or counter MSR addresses, or -1. */
static int amd_index(const struct bt_sim *sim, uint32_t msr, bool *is_ctr)
{
	const struct bt_sim_config *c = &sim->cfg;
	if (msr >= SIM_AMD_PERFEVTSEL0 && msr < SIM_AMD_PERFEVTSEL0 + 4) {
		*is_ctr = false;
		return (int)(msr - SIM_AMD_PERFEVTSEL0);
	}
	if (msr >= SIM_AMD_PERFCTR0 && msr < SIM_AMD_PERFCTR0 + 4) {
		*is_ctr = true;
		return (int)(msr - SIM_AMD_PERFCTR0);
	}
	if ((c->amd_core_ext || c->amd_v2) && msr >= SIM_AMD_CORE_SEL0 &&
	    msr < SIM_AMD_CORE_SEL0 + 2u * c->num_gp) {
		*is_ctr = (msr - SIM_AMD_CORE_SEL0) & 1;
		return (int)((msr - SIM_AMD_CORE_SEL0) / 2);
	}
	return -1;
}

/* The amd-alias-split defect (sim.h): with the core extension, the legacy
 * addresses reach registers of their own instead of core counters 0-3. */
static uint64_t *split_reg(struct bt_sim *sim, uint32_t msr)
{
	const struct bt_sim_config *c = &sim->cfg;
	if (!bt_sim_defect(sim, BT_SIM_DEFECT_AMD_ALIAS_SPLIT) || !(c->amd_core_ext || c->amd_v2))
		return NULL;
	if (msr >= SIM_AMD_PERFEVTSEL0 && msr < SIM_AMD_PERFEVTSEL0 + 4)
		return &sim->amd_split_sel[msr - SIM_AMD_PERFEVTSEL0];
	if (msr >= SIM_AMD_PERFCTR0 && msr < SIM_AMD_PERFCTR0 + 4)
		return &sim->amd_split_ctr[msr - SIM_AMD_PERFCTR0];
	return NULL;
}

static bt_status amd_rdmsr(struct bt_sim *sim, uint32_t msr, uint64_t *ret)
{
	const struct bt_sim_config *c = &sim->cfg;
	bool is_ctr;
	uint64_t *split = split_reg(sim, msr);
	if (split) {
		*ret = *split;
		return BT_OK;
	}
	int i = amd_index(sim, msr, &is_ctr);
	if (i >= 0) {
		*ret = is_ctr ? sim->regs.ctr[i] : sim->regs.evtsel[i];
		return BT_OK;
	}
	if (c->amd_v2) {
		switch (msr) {
		case SIM_AMD_GLOBAL_CTL: *ret = sim->regs.global_ctrl; return BT_OK;
		case SIM_AMD_GLOBAL_STATUS: *ret = sim->regs.global_status; return BT_OK;
		case SIM_AMD_GLOBAL_STATUS_CLR:
		case SIM_AMD_GLOBAL_STATUS_SET: *ret = 0; return BT_OK;
		}
	}
	if (c->aperf_mperf && (msr == SIM_IA32_MPERF || msr == SIM_IA32_APERF)) {
		*ret = msr == SIM_IA32_MPERF ? sim->mperf : sim->aperf;
		return BT_OK;
	}
	return BT_ERR_FAULT;
}

static bt_status amd_wrmsr(struct bt_sim *sim, uint32_t msr, uint64_t value)
{
	const struct bt_sim_config *c = &sim->cfg;
	bool is_ctr;
	uint64_t *split = split_reg(sim, msr);
	if (split) {
		*split = value;
		return BT_OK;
	}
	int i = amd_index(sim, msr, &is_ctr);
	if (i >= 0) {
		if (is_ctr) {
			if (value >> SIM_AMD_CTR_WIDTH)
				return BT_ERR_FAULT;
			sim->regs.ctr[i] = value & bt_sim_gp_ctr_mask(sim, (unsigned)i);
			bt_sim_note_gp_write(sim, (unsigned)i);
			return BT_OK;
		}
		if (value & ~SIM_AMD_SEL_VALID)
			return BT_ERR_FAULT;
		if (c->amd_v2 && ((sim->regs.global_ctrl >> i) & 1) &&
		    ((sim->regs.evtsel[i] | value) & SIM_SEL_EN) && sim->regs.evtsel[i] != value &&
		    (sim->regs.evtsel[i] & SIM_SEL_EN) && (value & SIM_SEL_EN))
			bt_sim_violation(sim, "PerfEvtSel%d rewritten while counting "
					 "(PerfCntrGlobalCtl and En both set)", i);
		sim->regs.evtsel[i] = value;
		return BT_OK;
	}
	if (c->amd_v2) {
		uint64_t valid = sim_width_mask(c->num_gp);
		switch (msr) {
		case SIM_AMD_GLOBAL_CTL:
			if (value & ~valid)
				return BT_ERR_FAULT;
			sim->regs.global_ctrl = value;
			return BT_OK;
		case SIM_AMD_GLOBAL_STATUS:
			return BT_ERR_FAULT; /* read-only */
		case SIM_AMD_GLOBAL_STATUS_CLR:
			if (value & ~valid)
				return BT_ERR_FAULT;
			sim->regs.global_status &= ~value;
			return BT_OK;
		case SIM_AMD_GLOBAL_STATUS_SET:
			if (value & ~valid)
				return BT_ERR_FAULT;
			sim->regs.global_status |= value;
			return BT_OK;
		}
	}
	if (c->aperf_mperf && (msr == SIM_IA32_MPERF || msr == SIM_IA32_APERF)) {
		if (msr == SIM_IA32_MPERF)
			sim->mperf = value;
		else
			sim->aperf = value;
		return BT_OK;
	}
	return BT_ERR_FAULT;
}

/* RDPMC (APM vol. 3 RDPMC): ECX is the counter number; one beyond the
 * counters is #GP. */
static bt_status amd_rdpmc(struct bt_sim *sim, uint32_t ecx, uint64_t *ret)
{
	const struct bt_sim_config *c = &sim->cfg;
	if (ecx >= c->num_gp)
		return BT_ERR_FAULT;
	*ret = sim->regs.ctr[ecx];
	return BT_OK;
}

const struct bt_sim_vendor bt_sim_amd_regs = {
	.vendor = BT_VENDOR_AMD,
	.rdmsr = amd_rdmsr,
	.wrmsr = amd_wrmsr,
	.rdpmc = amd_rdpmc,
};

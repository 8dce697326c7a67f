/* SPDX-License-Identifier: MIT */
/*
 * Raw register access inside an open session (pmu-raw.h), and the counter
 * addresses the drivers share with it.
 */
#include <stdio.h>

#include "pmu/msr.h"
#include "pmu/pmu-raw.h"
#include "pmu/pmu-regs.h"

static bool amd_core_ext(const struct bt_pmu_caps *c)
{
	return c->kind == BT_PMU_AMD_CORE_EXT || c->kind == BT_PMU_AMD_V2;
}

static bool amd(const struct bt_pmu_caps *c)
{
	return c->kind == BT_PMU_AMD_LEGACY || amd_core_ext(c);
}

/* Perfmon v6 programs every counter through the 0x19xx range (msr.h). */
static bool v6(const struct bt_pmu_caps *c)
{
	return !amd(c) && c->version >= 6;
}

uint32_t bt_pmu_gp_sel_msr(const struct bt_pmu_caps *c, unsigned i)
{
	if (amd(c))
		return amd_core_ext(c) ? MSR_AMD_CORE_EVTSEL0 + 2 * i : MSR_AMD_PERFEVTSEL0 + i;
	return v6(c) ? MSR_IA32_PMC_V6_GP0_CFG_A + MSR_IA32_PMC_V6_STEP * i
		     : MSR_IA32_PERFEVTSEL0 + i;
}

uint32_t bt_pmu_gp_ctr_msr(const struct bt_pmu_caps *c, unsigned i)
{
	if (amd(c))
		return amd_core_ext(c) ? MSR_AMD_CORE_CTR0 + 2 * i : MSR_AMD_PERFCTR0 + i;
	return v6(c) ? MSR_IA32_PMC_V6_GP0_CTR + MSR_IA32_PMC_V6_STEP * i : MSR_IA32_PMC0 + i;
}

/* No manual text was found on whether the v6 counter MSRs sign-extend
 * 32-bit writes; baretop treats them like the legacy pair (intel-pmu.c). */
uint32_t bt_pmu_gp_ctr_write_msr(const struct bt_pmu_caps *c, unsigned i)
{
	if (amd(c) || v6(c))
		return bt_pmu_gp_ctr_msr(c, i);
	return c->full_width_write ? MSR_IA32_A_PMC0 + i : MSR_IA32_PMC0 + i;
}

uint32_t bt_pmu_fixed_ctr_msr(const struct bt_pmu_caps *c, unsigned i)
{
	return v6(c) ? MSR_IA32_PMC_V6_FX0_CTR + MSR_IA32_PMC_V6_STEP * i
		     : MSR_IA32_FIXED_CTR0 + i;
}

uint32_t bt_pmu_global_ctrl_msr(const struct bt_pmu_caps *c)
{
	if (c->kind == BT_PMU_AMD_V2)
		return MSR_AMD_PERF_GLOBAL_CTL;
	return amd(c) ? 0 : MSR_IA32_PERF_GLOBAL_CTRL;
}

static bt_status say(struct bt_pmu_session *s, bt_status st, struct bt_diag *d,
		     const char *op, uint32_t msr, bool has_value, uint64_t value)
{
	char name[40];
	if (has_value)
		bt_diag_set(d, "%s %s (0x%X) = 0x%llx raised %s", op,
			    bt_msr_name(msr, name, sizeof(name)), msr, (unsigned long long)value,
			    bt_fault_name(s->arch->fault_vector));
	else
		bt_diag_set(d, "%s %s (0x%X) raised %s", op, bt_msr_name(msr, name, sizeof(name)),
			    msr, bt_fault_name(s->arch->fault_vector));
	return st;
}

bt_status bt_pmu_raw_read(struct bt_pmu_session *s, uint32_t msr, uint64_t *ret,
			  struct bt_diag *d)
{
	bt_status st = bt_rdmsr(s->arch, msr, ret);
	return st == BT_OK ? BT_OK : say(s, st, d, "RDMSR", msr, false, 0);
}

/* Save before the first write, as bt_pmu_save does, but without failing
 * the session on a fault. */
static bt_status save(struct bt_pmu_session *s, uint32_t msr, struct bt_diag *d)
{
	uint64_t v;
	if (bt_pmu_saved_value(s, msr, NULL))
		return BT_OK;
	if (s->n_saved == BT_PMU_MAX_SAVED) {
		bt_diag_set(d, "too many MSRs to save");
		return BT_ERR_INTERNAL;
	}
	bt_status st = bt_rdmsr(s->arch, msr, &v);
	if (st != BT_OK)
		return say(s, st, d, "RDMSR (saving)", msr, false, 0);
	s->saved[s->n_saved].msr = msr;
	s->saved[s->n_saved].value = v;
	s->n_saved++;
	return BT_OK;
}

bt_status bt_pmu_raw_write(struct bt_pmu_session *s, uint32_t save_msr, uint32_t msr,
			   uint64_t value, struct bt_diag *d)
{
	bt_status st = save_msr ? save(s, save_msr, d) : BT_OK;
	if (st != BT_OK)
		return st;
	st = bt_wrmsr(s->arch, msr, value);
	return st == BT_OK ? BT_OK : say(s, st, d, "WRMSR", msr, true, value);
}

bt_status bt_pmu_raw_rdpmc(struct bt_pmu_session *s, uint32_t ecx, uint64_t *ret,
			   struct bt_diag *d)
{
	bt_status st = bt_rdpmc(s->arch, ecx, ret);
	if (st != BT_OK)
		bt_diag_set(d, "RDPMC ECX=0x%X raised %s", ecx,
			    bt_fault_name(s->arch->fault_vector));
	return st;
}

bt_status bt_pmu_raw_window(struct bt_pmu_session *s, uint32_t msr, uint64_t start,
			    uint64_t stop, bt_window_fn *fn, void *arg, uint64_t *ret_tsc,
			    struct bt_diag *d)
{
	bt_status st = save(s, msr, d);
	if (st != BT_OK)
		return st;
	st = bt_pmu_window(s, msr, start, stop, fn, arg);
	if (st != BT_OK)
		return say(s, st, d, "the counting window's WRMSR of", msr, false, 0);
	if (ret_tsc)
		*ret_tsc = s->tsc1 - s->tsc0;
	return BT_OK;
}

uint64_t bt_pmu_raw_status_at_open(const struct bt_pmu_session *s)
{
	return s->status_saved ? s->saved_status : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Intel architectural performance monitoring v2+ (SDM vol. 3B ch. 20):
 * stop with IA32_PERF_GLOBAL_CTRL = 0, program selectors, fixed control and
 * extra MSRs, clear counters and overflow status, start and stop with one
 * GLOBAL_CTRL write each, read with RDPMC, restore.
 *
 * IA32_PERF_GLOBAL_STATUS is saved at open and put back at close. v4+ has
 * STATUS_SET, so bits may be cleared and set back; v2/v3 has only OVF_CTRL
 * (clear), so a bit that was set at open is never cleared. The one status
 * bit that matters for counting is CTR_Frz (v4): while set, nothing counts.
 *
 * IA32_DEBUGCTL.FREEZE_WHILE_SMM (bit 14) is set at open when
 * IA32_PERF_CAPABILITIES[12] says it exists (see freeze_in_smm()). Open
 * also reports counters found in use (v4+ IA32_PERF_GLOBAL_INUSE,
 * counters_in_use()) and clears a PEBS_ENABLE left armed (take_pebs()).
 */
#include <stdio.h>
#include <string.h>

#include "pmu/event-encode.h"
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/pmu-driver.h"
#include "pmu/pmu-raw.h"
#include "pmu/pmu-regs.h"

/* CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE and .REF_XCLK (event 0x3C, umasks
 * 0x02 and 0x01 in the event tables of Ivy Bridge .. Ice Lake). */
#define INTEL_EVENT_ONE_THREAD_ACTIVE 0x023Cu
#define INTEL_EVENT_REF_XCLK          0x013Cu

static const struct bt_pmu_mutation no_mutation;

static const struct bt_pmu_mutation *mut(const struct bt_pmu_session *s)
{
	return s->opts.mutation ? s->opts.mutation : &no_mutation;
}

/* Counter addresses: shared with the conformance checks (pmu-raw.c). */
static uint32_t sel_msr(const struct bt_pmu_session *s, unsigned i)
{
	return bt_pmu_gp_sel_msr(&s->caps, i);
}

/* The counter's address for reads (and saving). */
static uint32_t ctr_msr(const struct bt_pmu_session *s, unsigned i)
{
	return bt_pmu_gp_ctr_msr(&s->caps, i);
}

/* The counter's address for writes: the full-width alias IA32_A_PMCx when
 * IA32_PERF_CAPABILITIES[13] says it exists (v6: the 0x19xx address). */
static uint32_t ctr_write_msr(const struct bt_pmu_session *s, unsigned i)
{
	return bt_pmu_gp_ctr_write_msr(&s->caps, i);
}

static uint32_t fixed_msr(const struct bt_pmu_session *s, unsigned i)
{
	return bt_pmu_fixed_ctr_msr(&s->caps, i);
}

static uint64_t fixed_ctrl_value(const struct bt_pmu_session *s)
{
	/* One 4-bit field per fixed counter at bits 4i+3:4i (SDM Figure 20-2):
	 * OS | USR, no AnyThread, no PMI. */
	unsigned stride = mut(s)->fixed_ctrl_3bit_stride ? 3 : 4;
	uint64_t v = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
		if (s->fixed_used & (1u << i))
			v |= (FIXED_CTRL_OS | FIXED_CTRL_USR) << (stride * i);
	return v;
}

static uint64_t global_start(const struct bt_pmu_session *s)
{
	uint64_t v = s->gp_used | (uint64_t)s->fixed_used << GLOBAL_FIXED_SHIFT;
	if (s->pm)
		v |= GLOBAL_PERF_METRICS;
	return v;
}

/* The counter overflow bits of GLOBAL_STATUS / RESET / SET: one per
 * general and fixed counter, and 48 for PERF_METRICS where it exists. */
static uint64_t counter_bits(const struct bt_pmu_session *s)
{
	uint64_t v = s->caps.gp_mask | (uint64_t)s->caps.fixed_mask << GLOBAL_FIXED_SHIFT;
	if (s->caps.perf_metrics)
		v |= GLOBAL_PERF_METRICS;
	return v;
}

#define FRZ_BITS (GLOBAL_STATUS_LBR_FRZ | GLOBAL_STATUS_CTR_FRZ)

/* What the overflow-status write at program time clears. v4+: every
 * counter's bit, and CTR_Frz/LBR_Frz if firmware left them set (a frozen
 * PMU counts nothing); close sets back what was set. v2/v3: nothing that
 * was set at open, since there is no STATUS_SET to put it back. */
static uint64_t program_clear(const struct bt_pmu_session *s)
{
	uint64_t v = counter_bits(s);
	if (s->caps.version >= 4)
		return v | (s->saved_status & FRZ_BITS);
	return v & ~s->saved_status;
}

/*
 * Keep SMI handlers out of the counts. SDM vol. 3B "Filtering of SMM Handler
 * Overhead" (18.18.1 in the 2016 edition) and the IA32_DEBUGCTL flag list:
 * with IA32_DEBUGCTL.FREEZE_WHILE_SMM (bit 14) set, SMI delivery clears the
 * enables of IA32_PERF_GLOBAL_CTRL and RSM sets them back, so an SMI landing
 * in a window adds nothing to the counters. The bit exists only if
 * IA32_PERF_CAPABILITIES[12] (SMM_FRZ) reads 1: software must check that
 * first. DEBUGCTL's other bits (LBR, BTF, BTS, the PMI freezes...) may be in
 * use by firmware or a debugger, so the bit is set by read-modify-write and
 * the register is saved and restored like every other. KVM builds a guest's
 * PERF_CAPABILITIES from the full-width-write, LBR-format and PEBS bits only
 * (vmx_get_perf_capabilities), so bit 12 reads 0 there and this is skipped
 * (KVM applies the host's own FREEZE_IN_SMM setting to the guest since the
 * 2025 "Preserve host's DEBUGCTLMSR_FREEZE_IN_SMM" change). If a VMM
 * advertises the bit and then refuses it, the session counts without the
 * freeze and says so in s->warning rather than fail.
 */
static void freeze_in_smm(struct bt_pmu_session *s)
{
	if (s->opts.count_in_smm || !s->caps.has_perf_capabilities ||
	    !(s->caps.perf_capabilities & PERF_CAP_FREEZE_WHILE_SMM))
		return;
	const char *access = "";
	bt_status st = bt_pmu_try_set_bits(s, MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_WHILE_SMM, &access);
	if (st == BT_OK) {
		s->smm_frozen = true;
		return;
	}
	bt_pmu_warn(s, "%s IA32_DEBUGCTL (0x1D9) raised %s: counting is not frozen in SMM "
		    "(an SMI adds its handler's counts)", access,
		    st == BT_ERR_FAULT ? bt_fault_name(s->arch->fault_vector) : bt_status_str(st));
}

/* "0, 3" for mask 0x9. */
static void list_counters(char *buf, size_t len, uint32_t mask)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < 32 && n < len; i++)
		if (mask & (1u << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? ", " : "", i);
}

/*
 * Counters someone else was using when baretop started (firmware, an SMM
 * handler, a BMC agent). IA32_PERF_GLOBAL_INUSE (perfmon v4+, msr.h) marks
 * a general counter whose selector has a nonzero event select -- which a
 * stale, disabled encoding also has (Linux's own disable path leaves the
 * encoding in place) -- and a fixed counter whose enable bits are set.
 * Linux perf does not refuse such a PMU: check_hw_exists() (arch/x86/events/
 * core.c) warns "the BIOS has corrupted hw-PMU resources (MSR %x is %Lx)"
 * when a selector's EN bit or a fixed counter's enable bits are set, and
 * uses the counters anyway. baretop does the same: it reads the selectors
 * GLOBAL_INUSE marks (saving them, as programming would), names the ones
 * that are enabled and the fixed counters in use, and goes on; every one
 * is put back at close. The read goes through the fault guard: a VMM that
 * reports v4 without the MSR costs a warning, not the session.
 */
static bt_status counters_in_use(struct bt_pmu_session *s)
{
	uint64_t inuse, sel;
	if (s->caps.version < 4)
		return BT_OK;
	if (bt_rdmsr(s->arch, MSR_IA32_PERF_GLOBAL_INUSE, &inuse) != BT_OK) {
		bt_pmu_warn(s, "RDMSR IA32_PERF_GLOBAL_INUSE (0x392) raised %s: counters in use "
			    "before baretop are not reported", bt_fault_name(s->arch->fault_vector));
		return BT_OK;
	}
	uint32_t gp = 0, fixed = (uint32_t)(inuse >> 32) & s->caps.fixed_mask & 0x7FFFFFFFu;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(s->caps.gp_mask & inuse & (1u << i)))
			continue;
		bt_status st = bt_pmu_save(s, sel_msr(s, i));
		if (st != BT_OK)
			return st;
		if (bt_pmu_saved_value(s, sel_msr(s, i), &sel) && (sel & EVTSEL_EN))
			gp |= 1u << i;
	}
	if (!gp && !fixed)
		return BT_OK;
	char g[48], f[48];
	list_counters(g, sizeof(g), gp);
	list_counters(f, sizeof(f), fixed);
	bt_pmu_warn(s, "IA32_PERF_GLOBAL_INUSE (0x392) = 0x%llx: %s%s%s%s%s in use before baretop "
		    "took %s (firmware's?%s), put back at close",
		    (unsigned long long)inuse,
		    !gp ? "" : gp & (gp - 1) ? "general counters " : "general counter ", g,
		    gp && fixed ? " and " : "",
		    !fixed ? "" : fixed & (fixed - 1) ? "fixed counters " : "fixed counter ", f,
		    (gp | fixed) & ((gp | fixed) - 1) || (gp && fixed) ? "them" : "it",
		    inuse & GLOBAL_INUSE_PMI ? " with a PMI" : "");
	return BT_OK;
}

/*
 * PEBS armed by someone else: with IA32_PEBS_ENABLE bit n set, an overflow
 * of counter n makes the processor write a PEBS record through IA32_DS_AREA
 * -- into a buffer baretop does not own. PEBS exists when CPUID.01H:EDX[21]
 * (DS) is set and IA32_MISC_ENABLE[12] (PEBS unavailable) is clear, as Linux
 * decides X86_FEATURE_PEBS. There, IA32_PEBS_ENABLE is saved and cleared
 * for the session (through the save-before-touch helpers: put back at
 * close, also after a fault), and the warnings say so. Reads that fault
 * (a VMM) cost a warning; a refused clear fails the session, as counting
 * with someone else's PEBS armed is not safe.
 */
static bt_status take_pebs(struct bt_pmu_session *s)
{
	uint64_t misc, pebs;
	if (!s->caps.ds)
		return BT_OK;
	if (bt_rdmsr(s->arch, MSR_IA32_MISC_ENABLE, &misc) != BT_OK) {
		bt_pmu_warn(s, "RDMSR IA32_MISC_ENABLE (0x1A0) raised %s: IA32_PEBS_ENABLE left as "
			    "found", bt_fault_name(s->arch->fault_vector));
		return BT_OK;
	}
	if (misc & MISC_ENABLE_PEBS_UNAVAIL)
		return BT_OK;
	if (bt_rdmsr(s->arch, MSR_IA32_PEBS_ENABLE, &pebs) != BT_OK) {
		bt_pmu_warn(s, "RDMSR IA32_PEBS_ENABLE (0x3F1) raised %s: left as found",
			    bt_fault_name(s->arch->fault_vector));
		return BT_OK;
	}
	if (!pebs)
		return BT_OK;
	bt_status st = bt_pmu_wr(s, MSR_IA32_PEBS_ENABLE, 0, "clearing IA32_PEBS_ENABLE");
	if (st == BT_OK)
		bt_pmu_warn(s, "IA32_PEBS_ENABLE (0x3F1) was 0x%llx (PEBS armed before baretop, "
			    "firmware's?): cleared for the runs, put back at close",
			    (unsigned long long)pebs);
	return st;
}

static bt_status intel_open(struct bt_pmu_session *s)
{
	uint64_t status;
	bt_status st = bt_pmu_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &status,
				 "saving IA32_PERF_GLOBAL_STATUS");
	if (st != BT_OK)
		return st;
	s->saved_status = status;
	s->status_saved = true;
	if (mut(s)->no_stop_first)
		st = bt_pmu_save(s, MSR_IA32_PERF_GLOBAL_CTRL);
	else /* Stop everything first (SDM 20.2.2): nothing counts while we program. */
		st = bt_pmu_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0, "stopping all counters");
	if (st == BT_OK)
		freeze_in_smm(s);
	if (st == BT_OK)
		st = counters_in_use(s);
	if (st == BT_OK)
		st = take_pebs(s);
	return st;
}

/* The value a counter holds after writing `v`: IA32_PMCx writes bits 31:0
 * and sign-extends bit 31 (SDM 20.2.6); IA32_A_PMCx writes all bits. */
static uint64_t gp_write_effect(const struct bt_pmu_session *s, uint64_t v)
{
	uint64_t mask = bt_width_mask(s->caps.gp_width);
	if (s->caps.full_width_write || mut(s)->pmc_write_assume_full)
		return v & mask;
	return (uint64_t)(int64_t)(int32_t)(uint32_t)v & mask;
}

/* What to write so that the counter holds gp_write_effect(v). */
static uint64_t gp_write_value(const struct bt_pmu_session *s, uint64_t v)
{
	return s->caps.full_width_write ? v & bt_width_mask(s->caps.gp_width) : v & 0xFFFFFFFFull;
}

static bt_status write_gp_counter(struct bt_pmu_session *s, unsigned i, uint64_t v)
{
	return bt_pmu_wr_saving(s, ctr_msr(s, i), ctr_write_msr(s, i), gp_write_value(s, v),
				"clearing a general counter");
}

static bt_status intel_program(struct bt_pmu_session *s)
{
	const struct bt_plan_group *g = &s->plan->groups[s->group];
	bt_status st;
	struct bt_diag d;
	/* With FREEZE_WHILE_SMM, an SMI since the last stop write set every
	 * GLOBAL_CTRL enable at RSM (pmu-session.h): stop the counters again
	 * before any of them is programmed. An SMI after this is in the run's
	 * SMI bracket. */
	if (s->smm_frozen && s->smi_since_stop) {
		st = bt_pmu_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0,
			       "stopping the counters an SMI may have restarted");
		if (st != BT_OK)
			return st;
	}
	if (mut(s)->enable_before_program) {
		st = bt_pmu_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, global_start(s), "enabling (too early)");
		if (st != BT_OK)
			return st;
	}
	memset(s->evtsel, 0, sizeof(s->evtsel));
	bool msr_needed[BT_PLAN_MSR_SLOTS] = { false };
	uint64_t msr_value[BT_PLAN_MSR_SLOTS] = { 0 };
	for (int k = 0; k < g->n_gp; k++) {
		const struct bt_event *e = s->events[g->gp[k].event];
		struct bt_encoding enc;
		if (bt_event_encode_gp(e, &s->caps, g->gp[k].code2, &enc, &d) != BT_OK)
			return bt_pmu_fail(s, BT_ERR_INVALID, "%s", d.text);
		s->evtsel[g->gp[k].counter] = enc.evtsel | EVTSEL_EN;
		int slot = bt_plan_msr_slot(enc.extra_msr);
		if (slot >= 0) {
			msr_needed[slot] = true;
			msr_value[slot] = enc.extra_value;
		}
	}
	/* The SMT sibling probe (plan.h sibling_gp; event table: 0x3C umask
	 * 0x02 CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE, umask 0x01 REF_XCLK), in
	 * every ring like the events. */
	if (s->plan->has_sibling_gp)
		s->evtsel[s->plan->ota_gp] = INTEL_EVENT_ONE_THREAD_ACTIVE | EVTSEL_USR | EVTSEL_OS |
					     EVTSEL_EN;
	if (s->plan->has_xclk_gp)
		s->evtsel[s->plan->xclk_gp] = INTEL_EVENT_REF_XCLK | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;
	/* Counter 3 on a TSX_FORCE_ABORT part: RTM_FORCE_ABORT first, as
	 * Linux's intel_tfa_commit_scheduling does before it touches PMC3;
	 * saved and put back at close (intel_restore). */
	if (s->caps.tsx_force_abort && s->evtsel[3] && !s->tfa_set) {
		uint64_t tfa;
		st = bt_pmu_rd(s, MSR_TSX_FORCE_ABORT, &tfa, "reading MSR_TSX_FORCE_ABORT");
		if (st == BT_OK && !(tfa & TFA_RTM_FORCE_ABORT))
			st = bt_pmu_wr(s, MSR_TSX_FORCE_ABORT, tfa | TFA_RTM_FORCE_ABORT,
				       "setting MSR_TSX_FORCE_ABORT[0] for counter 3");
		if (st != BT_OK)
			return st;
		s->tfa_set = true;
		if (!(tfa & TFA_RTM_FORCE_ABORT))
			bt_pmu_warn(s, "counter 3 counted with MSR_TSX_FORCE_ABORT[0] set (the TSX "
				    "microcode holds IA32_PMC3 otherwise): RTM transactions abort "
				    "meanwhile, so an application using RTM ran its fallback path; "
				    "put back at close");
	}
	/* Selectors: the group's events, every other existing selector
	 * cleared so no stale encoding from an earlier group counts. */
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(s->caps.gp_mask & (1u << i)))
			continue;
		st = bt_pmu_wr(s, sel_msr(s, i), s->evtsel[i], "programming a selector");
		if (st != BT_OK)
			return st;
	}
	if (s->caps.fixed_mask) {
		st = bt_pmu_wr(s, MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl_value(s),
			       "programming IA32_FIXED_CTR_CTRL");
		if (st != BT_OK)
			return st;
	}
	static const uint32_t slot_msr[BT_PLAN_MSR_SLOTS] = {
		MSR_OFFCORE_RSP_0, MSR_OFFCORE_RSP_1, MSR_PEBS_LD_LAT, MSR_PEBS_FRONTEND,
	};
	for (int slot = 0; slot < BT_PLAN_MSR_SLOTS; slot++) {
		if (!msr_needed[slot])
			continue;
		st = bt_pmu_wr(s, slot_msr[slot], msr_value[slot], "programming an extra MSR");
		if (st != BT_OK)
			return st;
	}
	/* Counters: start values. */
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(s->gp_used & (1u << i)))
			continue;
		st = write_gp_counter(s, i, s->opts.counter_start);
		if (st != BT_OK)
			return st;
		s->gp_start[i] = gp_write_effect(s, s->opts.counter_start);
	}
	uint64_t fmask = bt_width_mask(s->caps.fixed_width);
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++) {
		if (!(s->fixed_used & (1u << i)))
			continue;
		/* With PERF_METRICS, SLOTS starts at 0: the fractions are of it. */
		uint64_t v = (i == 3 && s->pm) ? 0 : s->opts.counter_start & fmask;
		st = bt_pmu_wr(s, fixed_msr(s, i), v, "clearing a fixed counter");
		if (st != BT_OK)
			return st;
		s->fixed_start[i] = v;
	}
	if (s->caps.perf_metrics && !mut(s)->slots_reset_without_pm) {
		/* SDM 20.3.9.3: PERF_METRICS and FIXED_CTR3 are reset together,
		 * FIXED_CTR3 first (as Linux does); otherwise the fractions refer
		 * to counts SLOTS no longer holds. */
		st = bt_pmu_wr(s, MSR_PERF_METRICS, 0, "resetting MSR_PERF_METRICS with SLOTS");
		if (st != BT_OK)
			return st;
	}
	/* Clear overflow status (OVF_CTRL / STATUS_RESET), CTR_Frz included. */
	uint64_t clear = program_clear(s);
	if (clear) {
		st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_OVF_CTRL, clear);
		if (st != BT_OK)
			return bt_pmu_fail(s, st, "WRMSR IA32_PERF_GLOBAL_%s (0x390) = 0x%llx raised %s",
					   s->caps.version >= 4 ? "STATUS_RESET" : "OVF_CTRL",
					   (unsigned long long)clear,
					   bt_fault_name(s->arch->fault_vector));
	}
	return BT_OK;
}

static bt_status intel_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg)
{
	/* GLOBAL_CTRL was saved at open; one write starts, one write stops. */
	bt_status st = bt_pmu_window(s, MSR_IA32_PERF_GLOBAL_CTRL, global_start(s), 0, fn, arg);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "the counting window's IA32_PERF_GLOBAL_CTRL write raised %s",
				   bt_fault_name(s->arch->fault_vector));
	return BT_OK;
}

static bt_status read_counter(struct bt_pmu_session *s, bool fixed, unsigned i, uint64_t *ret)
{
	if (s->opts.use_rdmsr)
		return bt_pmu_rd(s, fixed ? fixed_msr(s, i) : ctr_msr(s, i), ret, "reading a counter");
	/* RDPMC: ECX[30] selects the fixed counters (SDM vol. 2B). */
	uint32_t ecx = i;
	if (fixed && !mut(s)->rdpmc_no_fixed_bit)
		ecx |= (uint32_t)RDPMC_FIXED;
	return bt_pmu_rdpmc(s, ecx, ret, fixed ? "reading a fixed counter" : "reading a counter");
}

/* PERF_METRICS holds each Top-Down level-1/2 fraction as a byte of 255ths
 * of SLOTS (SDM 20.3.9.3). */
uint64_t bt_perf_metrics_slots(uint64_t slots, uint8_t field)
{
	/* slots < 2^56 keeps slots * 255 within 64 bits; beyond that split. */
	if (slots < (1ull << 56))
		return slots * field / 255;
	return (slots / 255) * field + (slots % 255) * field / 255;
}

static bt_status intel_read(struct bt_pmu_session *s, struct bt_pmu_counts *c)
{
	bt_status st;
	uint64_t gmask = bt_width_mask(s->caps.gp_width), fmask = bt_width_mask(s->caps.fixed_width);
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(s->gp_used & (1u << i)))
			continue;
		st = read_counter(s, false, i, &c->gp_end[i]);
		if (st != BT_OK)
			return st;
		c->gp_start[i] = s->gp_start[i];
		/* At most one wrap per window: the difference modulo 2^width. */
		c->gp_delta[i] = (c->gp_end[i] - c->gp_start[i]) & gmask;
	}
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++) {
		if (!(s->fixed_used & (1u << i)))
			continue;
		st = read_counter(s, true, i, &c->fixed_end[i]);
		if (st != BT_OK)
			return st;
		c->fixed_start[i] = s->fixed_start[i];
		c->fixed_delta[i] = (c->fixed_end[i] - c->fixed_start[i]) & fmask;
	}
	if (s->pm) {
		/* PERF_METRICS is read together with SLOTS (fixed counter 3),
		 * both after the stop write. */
		uint64_t pm;
		st = s->opts.use_rdmsr ? bt_pmu_rd(s, MSR_PERF_METRICS, &pm, "reading MSR_PERF_METRICS")
				       : bt_pmu_rdpmc(s, (uint32_t)RDPMC_PERF_METRICS, &pm,
						      "reading PERF_METRICS");
		if (st != BT_OK)
			return st;
		c->has_perf_metrics = true;
		c->perf_metrics_raw = pm;
		c->slots = c->fixed_delta[3];
		for (int f = 0; f < 8; f++)
			c->pm_slots[f] = bt_perf_metrics_slots(c->slots, (uint8_t)(pm >> (8 * f)));
	}
	/* With FREEZE_WHILE_SMM, an SMI after the stop write sets every
	 * GLOBAL_CTRL enable at RSM (pmu-session.h), and the counters counted
	 * the reads above: say so, and stop them again. */
	if (s->smm_frozen) {
		uint64_t ctrl;
		st = bt_pmu_rd(s, MSR_IA32_PERF_GLOBAL_CTRL, &ctrl,
			       "checking IA32_PERF_GLOBAL_CTRL after the reads");
		if (st == BT_OK && ctrl) {
			c->smm_restarted = true;
			st = bt_pmu_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0,
				       "stopping the counters an SMI restarted");
		}
		if (st != BT_OK)
			return st;
	}
	return BT_OK;
}

/* Put GLOBAL_STATUS back as it was at open (see the top of this file). */
static void restore_status(struct bt_pmu_session *s, bt_status *first)
{
	uint64_t saved = s->saved_status;
	/* Clear what our runs may have set and was clear at open. */
	uint64_t clear = (counter_bits(s) | GLOBAL_STATUS_OVF_BUF | GLOBAL_STATUS_COND_CHGD |
			  (s->caps.version >= 4 ? FRZ_BITS : 0)) & ~saved;
	bt_pmu_restore_write(s, MSR_IA32_PERF_GLOBAL_OVF_CTRL, clear, first);
	/* v4+: set back what program time cleared (never bit 63, which
	 * STATUS_SET does not have). */
	uint64_t set = saved & (counter_bits(s) | FRZ_BITS);
	if (s->caps.version >= 4 && set)
		bt_pmu_restore_write(s, MSR_IA32_PERF_GLOBAL_STATUS_SET, set, first);
	/* Say so when the status could not be put back. */
	uint64_t now;
	if (bt_rdmsr(s->arch, MSR_IA32_PERF_GLOBAL_STATUS, &now) == BT_OK && now != saved &&
	    !s->restore_warned) {
		s->restore_warned = true;
		bt_pmu_warn(s, "IA32_PERF_GLOBAL_STATUS is 0x%llx after restoring, was 0x%llx when "
			    "baretop started", (unsigned long long)now, (unsigned long long)saved);
	}
}

static bt_status intel_restore(struct bt_pmu_session *s)
{
	bt_status first = BT_OK;
	uint64_t v;
	/* Stop first, so nothing counts while registers change. */
	if (bt_pmu_saved_value(s, MSR_IA32_PERF_GLOBAL_CTRL, NULL))
		bt_pmu_restore_write(s, MSR_IA32_PERF_GLOBAL_CTRL, 0, &first);
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		bt_pmu_restore_one(s, sel_msr(s, i), &first);
	bt_pmu_restore_one(s, MSR_IA32_FIXED_CTR_CTRL, &first);
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!bt_pmu_saved_value(s, ctr_msr(s, i), &v))
			continue;
		uint64_t w = gp_write_value(s, v);
		if (gp_write_effect(s, w) != v && !s->restore_warned) {
			s->restore_warned = true;
			bt_pmu_warn(s, "IA32_PMC%u held 0x%llx, which a 32-bit sign-extending write "
				    "cannot restore (no full-width writes); restored its low 32 bits",
				    i, (unsigned long long)v);
		}
		bt_pmu_restore_write(s, ctr_write_msr(s, i), w, &first);
	}
	/* FIXED_CTR3 before PERF_METRICS: the fractions are relative to it. */
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
		bt_pmu_restore_one(s, fixed_msr(s, i), &first);
	bt_pmu_restore_one(s, MSR_PERF_METRICS, &first);
	bt_pmu_restore_one(s, MSR_OFFCORE_RSP_0, &first);
	bt_pmu_restore_one(s, MSR_OFFCORE_RSP_1, &first);
	bt_pmu_restore_one(s, MSR_PEBS_LD_LAT, &first);
	bt_pmu_restore_one(s, MSR_PEBS_FRONTEND, &first);
	/* Saved only if open changed it (FREEZE_WHILE_SMM); counters are
	 * stopped, and firmware's own counting resumes with GLOBAL_CTRL below,
	 * under its own DEBUGCTL. */
	bt_pmu_restore_one(s, MSR_IA32_DEBUGCTL, &first);
	/* Saved only if open cleared it: PEBS as armed before, counters and
	 * their controls already back, still stopped. */
	bt_pmu_restore_one(s, MSR_IA32_PEBS_ENABLE, &first);
	if (s->status_saved && bt_pmu_saved_value(s, MSR_IA32_PERF_GLOBAL_CTRL, NULL))
		restore_status(s, &first);
	bt_pmu_restore_one(s, MSR_IA32_PERF_GLOBAL_CTRL, &first);
	/* Last: RTM as it was, with counter 3 as firmware left it. */
	bt_pmu_restore_one(s, MSR_TSX_FORCE_ABORT, &first);
	if (first != BT_OK && !s->failed)
		bt_pmu_fail(s, first, "restoring the PMU: %s", s->warning);
	return first;
}

/* Architectural performance monitoring v2+: fixed counters, one
 * GLOBAL_CTRL write starts and one stops. What differs by version (v4+
 * STATUS_SET, v6 0x19xx addresses) is decided from caps inside this file. */
const struct bt_pmu_driver bt_pmu_intel_driver = {
	.name = "intel-arch",
	.kinds = 1u << BT_PMU_INTEL_ARCH,
	.fixed_counters = true,
	.smi_count = true,
	.open = intel_open,
	.program = intel_program,
	.run = intel_run,
	.read = intel_read,
	.restore = intel_restore,
};

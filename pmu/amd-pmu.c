/* SPDX-License-Identifier: MIT */
/*
 * AMD core performance counters (APM vol. 2 §13.2): 4 legacy counters at
 * 0xC0010000/4, 6 with the core extension at 0xC0010200 + 2n (select) /
 * + 2n + 1 (counter), and PerfMonV2's PerfCntrGlobalCtl (0xC0000301), which
 * gives the same one-write start/stop as Intel.
 *
 * Without PerfMonV2 there is no global enable: each counter starts when its
 * PerfEvtSel.En is written. The used counters u0..uk are enabled in order,
 * uk by the counting window's start write, and disabled uk (the stop write)
 * then u0..uk-1. Counter uj therefore also counts the k - j enable writes
 * after its own, the stop write and the j disable writes before its own, up
 * to k + 1 foreign WRMSRs (and what the CPU retires around them). The
 * harness's empty-workload calibration measures exactly that and subtracts it.
 * The run's TSC is read around the window's start and stop writes only
 * (bt_pmu_window), so the other writes stay out of the run's duration.
 */
#include <string.h>

#include "base/assert.h"
#include "pmu/event-encode.h"
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/pmu-driver.h"
#include "pmu/pmu-raw.h"
#include "pmu/pmu-regs.h"

/* PPR event numbers (Linux perf amdzen4/core.json and amdzen5/: ex_ret_instr
 * 0xc0, ls_smi_rx 0x2b). */
#define AMD_EVENT_RETIRED_INSTRUCTIONS 0xC0u
#define AMD_EVENT_SMIS_RECEIVED 0x2Bu

/* Counter addresses: shared with the conformance checks (pmu-raw.c). */
static uint32_t sel_msr(const struct bt_pmu_session *s, unsigned i)
{
	return bt_pmu_gp_sel_msr(&s->caps, i);
}

static uint32_t ctr_msr(const struct bt_pmu_session *s, unsigned i)
{
	return bt_pmu_gp_ctr_msr(&s->caps, i);
}

static bool v2(const struct bt_pmu_session *s)
{
	return s->caps.kind == BT_PMU_AMD_V2;
}

static bt_status amd_open(struct bt_pmu_session *s)
{
	if (v2(s)) {
		uint64_t status;
		bt_status st = bt_pmu_rd(s, MSR_AMD_PERF_GLOBAL_STATUS, &status,
					 "saving PerfCntrGlobalStatus");
		if (st != BT_OK)
			return st;
		s->saved_status = status;
		s->status_saved = true;
		if (s->opts.mutation && s->opts.mutation->no_stop_first)
			return bt_pmu_save(s, MSR_AMD_PERF_GLOBAL_CTL);
		return bt_pmu_wr(s, MSR_AMD_PERF_GLOBAL_CTL, 0, "stopping all counters");
	}
	/* No global control: stop each counter by clearing its En bit. */
	for (unsigned i = 0; i < s->caps.num_gp; i++) {
		uint64_t sel;
		bt_status st = bt_pmu_save(s, sel_msr(s, i));
		if (st != BT_OK)
			return st;
		bt_pmu_saved_value(s, sel_msr(s, i), &sel);
		if (sel & EVTSEL_EN) {
			st = bt_pmu_wr(s, sel_msr(s, i), sel & ~EVTSEL_EN, "stopping a counter");
			if (st != BT_OK)
				return st;
		}
	}
	return BT_OK;
}

static bt_status amd_program(struct bt_pmu_session *s)
{
	const struct bt_plan_group *g = &s->plan->groups[s->group];
	struct bt_diag d;
	bt_status st;
	memset(s->evtsel, 0, sizeof(s->evtsel));
	for (int k = 0; k < g->n_gp; k++) {
		struct bt_encoding enc;
		if (bt_event_encode_gp(s->events[g->gp[k].event], &s->caps, false, &enc, &d) !=
		    BT_OK)
			return bt_pmu_fail(s, BT_ERR_INVALID, "%s", d.text);
		if (s->opts.mutation && s->opts.mutation->amd_drop_event_hi)
			enc.evtsel &= ~(0xFull << AMD_EVTSEL_EVENT_HI_SHIFT);
		s->evtsel[g->gp[k].counter] = enc.evtsel;
	}
	/* The run's own counts (plan.h): Retired Instructions (PMCx0C0) judges
	 * the run, SMIs Received (PMCx02B, Zen 2 .. Zen 5: caps.amd_smi_rx) is
	 * its SMI count; both in every ring, like the conformance checks'
	 * selectors (event select in [7:0], APM vol. 2 Figure 13-7). */
	if (s->plan->has_inst_gp)
		s->evtsel[s->plan->inst_gp] = AMD_EVENT_RETIRED_INSTRUCTIONS | EVTSEL_USR | EVTSEL_OS;
	if (s->plan->has_smi_gp)
		s->evtsel[s->plan->smi_gp] = AMD_EVENT_SMIS_RECEIVED | EVTSEL_USR | EVTSEL_OS;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(s->caps.gp_mask & (1u << i)))
			continue;
		/* With PerfMonV2, En is set now and GlobalCtl starts the counter;
		 * without it, En is the start and is written by amd_run. */
		uint64_t v = s->evtsel[i];
		if (v2(s) && (s->gp_used & (1u << i)))
			v |= EVTSEL_EN;
		st = bt_pmu_wr(s, sel_msr(s, i), v, "programming a PerfEvtSel");
		if (st != BT_OK)
			return st;
	}
	uint64_t mask = bt_width_mask(AMD_COUNTER_WIDTH);
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(s->gp_used & (1u << i)))
			continue;
		st = bt_pmu_wr(s, ctr_msr(s, i), s->opts.counter_start & mask, "clearing a PerfCtr");
		if (st != BT_OK)
			return st;
		s->gp_start[i] = s->opts.counter_start & mask;
	}
	if (v2(s)) {
		st = bt_wrmsr(s->arch, MSR_AMD_PERF_GLOBAL_STATUS_CLR, s->caps.gp_mask);
		if (st != BT_OK)
			return bt_pmu_fail(s, st, "WRMSR PerfCntrGlobalStatusClr raised %s",
					   bt_fault_name(s->arch->fault_vector));
	}
	return BT_OK;
}

static bt_status amd_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg)
{
	bt_status st;
	if (v2(s)) {
		st = bt_pmu_window(s, MSR_AMD_PERF_GLOBAL_CTL, s->gp_used, 0, fn, arg);
		if (st != BT_OK)
			return bt_pmu_fail(s, st, "the counting window's PerfCntrGlobalCtl write raised %s",
					   bt_fault_name(s->arch->fault_vector));
		return BT_OK;
	}
	int used[BT_PMU_MAX_GP], n = 0;
	/* Detection never reports more (Fn8000_0022 EBX[3:0] is at most 15);
	 * caps from elsewhere (a preset, a test) must not overrun used[].
	 * Checked before the window, not in it. */
	BT_ASSERT(s->caps.num_gp <= BT_PMU_MAX_GP);
	for (unsigned i = 0; i < s->caps.num_gp; i++)
		if (s->gp_used & (1u << i))
			used[n++] = (int)i;
	if (n == 0) {
		/* Nothing to start: a window that writes PerfEvtSel0 unchanged. */
		st = bt_pmu_window(s, sel_msr(s, 0), s->evtsel[0], s->evtsel[0], fn, arg);
		return st == BT_OK ? BT_OK : bt_pmu_fail(s, st, "the counting window's write raised %s",
							 bt_fault_name(s->arch->fault_vector));
	}
	for (int k = 0; k < n - 1; k++) {
		st = bt_pmu_wr(s, sel_msr(s, (unsigned)used[k]), s->evtsel[used[k]] | EVTSEL_EN,
			       "starting a counter");
		if (st != BT_OK)
			return st;
	}
	unsigned last = (unsigned)used[n - 1];
	st = bt_pmu_window(s, sel_msr(s, last), s->evtsel[last] | EVTSEL_EN, s->evtsel[last], fn,
			   arg);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "the counting window's PerfEvtSel%u write raised %s", last,
				   bt_fault_name(s->arch->fault_vector));
	for (int k = 0; k < n - 1; k++) {
		st = bt_pmu_wr(s, sel_msr(s, (unsigned)used[k]), s->evtsel[used[k]], "stopping a counter");
		if (st != BT_OK)
			return st;
	}
	return BT_OK;
}

static bt_status amd_read(struct bt_pmu_session *s, struct bt_pmu_counts *c)
{
	uint64_t mask = bt_width_mask(AMD_COUNTER_WIDTH);
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(s->gp_used & (1u << i)))
			continue;
		bt_status st = s->opts.use_rdmsr ? bt_pmu_rd(s, ctr_msr(s, i), &c->gp_end[i], "reading a PerfCtr")
						 : bt_pmu_rdpmc(s, i, &c->gp_end[i], "reading a PerfCtr");
		if (st != BT_OK)
			return st;
		c->gp_start[i] = s->gp_start[i];
		c->gp_delta[i] = (c->gp_end[i] - c->gp_start[i]) & mask;
	}
	return BT_OK;
}

static bt_status amd_restore(struct bt_pmu_session *s)
{
	bt_status first = BT_OK;
	uint64_t v;
	if (v2(s) && bt_pmu_saved_value(s, MSR_AMD_PERF_GLOBAL_CTL, NULL))
		bt_pmu_restore_write(s, MSR_AMD_PERF_GLOBAL_CTL, 0, &first);
	/* Selectors disabled first (their saved value may have En set), then
	 * counters, then the selectors' saved values. */
	for (unsigned i = 0; i < s->caps.num_gp; i++)
		if (bt_pmu_saved_value(s, sel_msr(s, i), &v))
			bt_pmu_restore_write(s, sel_msr(s, i), v & ~EVTSEL_EN, &first);
	for (unsigned i = 0; i < s->caps.num_gp; i++)
		bt_pmu_restore_one(s, ctr_msr(s, i), &first);
	for (unsigned i = 0; i < s->caps.num_gp; i++)
		bt_pmu_restore_one(s, sel_msr(s, i), &first);
	if (v2(s) && s->status_saved && bt_pmu_saved_value(s, MSR_AMD_PERF_GLOBAL_CTL, NULL)) {
		/* PerfMonV2 has both a clear and a set register: clear what our
		 * runs set, set back what program time cleared. */
		bt_pmu_restore_write(s, MSR_AMD_PERF_GLOBAL_STATUS_CLR,
				     s->caps.gp_mask & ~s->saved_status, &first);
		if (s->saved_status & s->caps.gp_mask)
			bt_pmu_restore_write(s, MSR_AMD_PERF_GLOBAL_STATUS_SET,
					     s->saved_status & s->caps.gp_mask, &first);
	}
	bt_pmu_restore_one(s, MSR_AMD_PERF_GLOBAL_CTL, &first);
	if (first != BT_OK && !s->failed)
		bt_pmu_fail(s, first, "restoring the PMU: %s", s->warning);
	return first;
}

/* Legacy (4 counters), core extension (6) and PerfMonV2 (global control):
 * the differences are decided from caps.kind inside this file. AMD has no
 * fixed counters and no MSR_SMI_COUNT: the run's instructions and, where
 * the family has PMCx02B, its SMIs are counted on general counters the
 * plan reserves (plan.h inst_gp / smi_gp; the session reads them into
 * counts.inst_delta / smi_delta). */
const struct bt_pmu_driver bt_pmu_amd_driver = {
	.name = "amd",
	.kinds = 1u << BT_PMU_AMD_LEGACY | 1u << BT_PMU_AMD_CORE_EXT | 1u << BT_PMU_AMD_V2,
	.fixed_counters = false,
	.smi_count = false,
	.open = amd_open,
	.program = amd_program,
	.run = amd_run,
	.read = amd_read,
	.restore = amd_restore,
};

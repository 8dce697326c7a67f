/* SPDX-License-Identifier: MIT */
/*
 * Intel architectural performance monitoring v2+ (SDM vol. 3B ch. 20):
 * stop with IA32_PERF_GLOBAL_CTRL = 0, program selectors, fixed control and
 * extra MSRs, clear counters and overflow status, start and stop with one
 * GLOBAL_CTRL write each, read with RDPMC, restore.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/event-encode.h"
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/pmu-internal.h"

static const struct bt_pmu_mutation no_mutation;

static const struct bt_pmu_mutation *mut(const struct bt_pmu_session *s)
{
	return s->opts.mutation ? s->opts.mutation : &no_mutation;
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

static uint64_t clear_mask(const struct bt_pmu_session *s)
{
	uint64_t v = s->caps.gp_mask | (uint64_t)s->caps.fixed_mask << GLOBAL_FIXED_SHIFT;
	if (s->caps.perf_metrics)
		v |= GLOBAL_PERF_METRICS;
	return v;
}

bt_status bt_intel_open(struct bt_pmu_session *s)
{
	uint64_t status;
	bt_status st = bt_pmu_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &status,
				 "saving IA32_PERF_GLOBAL_STATUS");
	if (st != BT_OK)
		return st;
	s->saved_status = status;
	s->status_saved = true;
	if (mut(s)->no_stop_first)
		return bt_pmu_save(s, MSR_IA32_PERF_GLOBAL_CTRL);
	/* Stop everything first (SDM 20.2.2): nothing counts while we program. */
	return bt_pmu_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0, "stopping all counters");
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

static bt_status write_gp_counter(struct bt_pmu_session *s, unsigned i, uint64_t v)
{
	uint32_t msr = s->caps.full_width_write ? MSR_IA32_A_PMC0 + i : MSR_IA32_PMC0 + i;
	uint64_t mask = bt_width_mask(s->caps.gp_width);
	/* The full-width alias takes exactly the counter width; the legacy
	 * address takes the low 32 bits. */
	uint64_t w = s->caps.full_width_write ? v & mask : v & 0xFFFFFFFFull;
	return bt_pmu_wr_saving(s, MSR_IA32_PMC0 + i, msr, w, "clearing a general counter");
}

bt_status bt_intel_program(struct bt_pmu_session *s)
{
	const struct bt_plan_group *g = &s->plan->groups[s->group];
	bt_status st;
	char err[160];
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
		if (bt_event_encode_gp(e, &s->caps, g->gp[k].code2, &enc, err, sizeof(err)) != BT_OK)
			return bt_pmu_fail(s, BT_ERR_INVALID, "%s", err);
		s->evtsel[g->gp[k].counter] = enc.evtsel | EVTSEL_EN;
		int slot = enc.extra_msr == MSR_OFFCORE_RSP_0 ? BT_PLAN_MSR_OFFCORE0
			   : enc.extra_msr == MSR_OFFCORE_RSP_1 ? BT_PLAN_MSR_OFFCORE1
			   : enc.extra_msr == MSR_PEBS_LD_LAT ? BT_PLAN_MSR_LDLAT
			   : enc.extra_msr == MSR_PEBS_FRONTEND ? BT_PLAN_MSR_FRONTEND : -1;
		if (slot >= 0) {
			msr_needed[slot] = true;
			msr_value[slot] = enc.extra_value;
		}
	}
	/* Selectors: the group's events, every other selector cleared so no
	 * stale encoding from an earlier group counts. Counters beyond the
	 * PMU's (a planner mistake) fault here. */
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (i >= s->caps.num_gp && !(s->gp_used & (1u << i)))
			continue;
		st = bt_pmu_wr(s, MSR_IA32_PERFEVTSEL0 + i, s->evtsel[i], "programming a selector");
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
		st = bt_pmu_wr(s, MSR_IA32_FIXED_CTR0 + i, v, "clearing a fixed counter");
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
	/* Clear overflow status (GLOBAL_OVF_CTRL / GLOBAL_STATUS_RESET). */
	st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_OVF_CTRL, clear_mask(s));
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "WRMSR IA32_PERF_GLOBAL_OVF_CTRL = 0x%llx raised %s",
				   (unsigned long long)clear_mask(s), bt_fault_name(s->arch->fault_vector));
	return BT_OK;
}

bt_status bt_intel_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg)
{
	/* GLOBAL_CTRL was saved at open; one write starts, one write stops. */
	bt_status st = s->arch->ops->run_window(s->arch, MSR_IA32_PERF_GLOBAL_CTRL, global_start(s),
						0, fn, arg);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "the counting window's IA32_PERF_GLOBAL_CTRL write raised %s",
				   bt_fault_name(s->arch->fault_vector));
	return BT_OK;
}

static bt_status read_counter(struct bt_pmu_session *s, bool fixed, unsigned i, uint64_t *ret)
{
	if (s->opts.use_rdmsr)
		return bt_pmu_rd(s, (fixed ? MSR_IA32_FIXED_CTR0 : MSR_IA32_PMC0) + i, ret,
				 "reading a counter");
	/* RDPMC: ECX[30] selects the fixed counters (SDM vol. 2B). */
	uint32_t ecx = i;
	if (fixed && !mut(s)->rdpmc_no_fixed_bit)
		ecx |= (uint32_t)RDPMC_FIXED;
	return bt_pmu_rdpmc(s, ecx, ret, fixed ? "reading a fixed counter" : "reading a counter");
}

bt_status bt_intel_read(struct bt_pmu_session *s, struct bt_pmu_counts *c)
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
	return BT_OK;
}

bt_status bt_intel_restore(struct bt_pmu_session *s)
{
	bt_status first = BT_OK;
	uint64_t v;
	/* Stop first, so nothing counts while registers change. */
	if (bt_pmu_saved_value(s, MSR_IA32_PERF_GLOBAL_CTRL, NULL)) {
		bt_status st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_CTRL, 0);
		if (st != BT_OK)
			st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_CTRL, 0);
		if (st != BT_OK)
			first = st;
	}
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		bt_pmu_restore_one(s, MSR_IA32_PERFEVTSEL0 + i, &first);
	bt_pmu_restore_one(s, MSR_IA32_FIXED_CTR_CTRL, &first);
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!bt_pmu_saved_value(s, MSR_IA32_PMC0 + i, &v))
			continue;
		uint32_t msr = s->caps.full_width_write ? MSR_IA32_A_PMC0 + i : MSR_IA32_PMC0 + i;
		uint64_t w = s->caps.full_width_write ? v : v & 0xFFFFFFFFull;
		if (!s->caps.full_width_write && gp_write_effect(s, w) != v && !s->warning[0])
			snprintf(s->warning, sizeof(s->warning),
				 "IA32_PMC%u held 0x%llx, which a 32-bit sign-extending write cannot "
				 "restore (no full-width writes); restored its low 32 bits", i,
				 (unsigned long long)v);
		bt_status st = bt_wrmsr(s->arch, msr, w);
		if (st != BT_OK)
			st = bt_wrmsr(s->arch, msr, w);
		if (st != BT_OK && first == BT_OK)
			first = st;
	}
	/* FIXED_CTR3 before PERF_METRICS: the fractions are relative to it. */
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
		bt_pmu_restore_one(s, MSR_IA32_FIXED_CTR0 + i, &first);
	bt_pmu_restore_one(s, MSR_PERF_METRICS, &first);
	bt_pmu_restore_one(s, MSR_OFFCORE_RSP_0, &first);
	bt_pmu_restore_one(s, MSR_OFFCORE_RSP_1, &first);
	bt_pmu_restore_one(s, MSR_PEBS_LD_LAT, &first);
	bt_pmu_restore_one(s, MSR_PEBS_FRONTEND, &first);
	if (s->status_saved && bt_pmu_saved_value(s, MSR_IA32_PERF_GLOBAL_CTRL, NULL)) {
		/* Our runs may have set overflow bits: clear ours, then put back
		 * what was there (STATUS_SET exists from v4, SDM 20.2.4). */
		uint64_t clear = clear_mask(s) | GLOBAL_OVF_OTHER_V2;
		bt_status st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_OVF_CTRL, clear & ~s->saved_status);
		if (st != BT_OK)
			st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_OVF_CTRL, clear & ~s->saved_status);
		if (st != BT_OK && first == BT_OK)
			first = st;
		if (s->saved_status && s->caps.version >= 4) {
			st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_STATUS_SET, s->saved_status);
			if (st != BT_OK)
				st = bt_wrmsr(s->arch, MSR_IA32_PERF_GLOBAL_STATUS_SET, s->saved_status);
			if (st != BT_OK && first == BT_OK)
				first = st;
		}
	}
	bt_pmu_restore_one(s, MSR_IA32_PERF_GLOBAL_CTRL, &first);
	if (first != BT_OK && !s->failed)
		bt_pmu_fail(s, first, "restoring the PMU: %s", s->warning);
	return first;
}

/* SPDX-License-Identifier: MIT */
/*
 * What the planner (plan.c), the lower bound and the validator
 * (plan-bound.c) ask of one event on this PMU: the general counters it may
 * use, the extra-MSR slots it may program, whether two events share one
 * encoding. Kept apart from both so each depends on it and neither on the
 * other's internals (plan.c -> plan-bound.c -> plan-classify.c). Declared
 * in plan.h.
 */
#include "pmu/event-encode.h"
#include "pmu/msr.h"
#include "pmu/plan.h"

const char *bt_plan_msr_name(int slot)
{
	static const char *const names[BT_PLAN_MSR_SLOTS] = {
		"MSR_OFFCORE_RSP_0", "MSR_OFFCORE_RSP_1", "MSR_PEBS_LD_LAT", "MSR_PEBS_FRONTEND",
	};
	return slot >= 0 && slot < BT_PLAN_MSR_SLOTS ? names[slot] : "?";
}

static bool amd_kind(const struct bt_pmu_caps *caps)
{
	return caps->kind == BT_PMU_AMD_LEGACY || caps->kind == BT_PMU_AMD_CORE_EXT ||
	       caps->kind == BT_PMU_AMD_V2;
}

/* Counter 0 first, then 3: the event tables of Ivy Bridge .. Cascade
 * Lake (the parts whose Top-Down formulas have SMT branches) confine events
 * to counter 1 (INST_RETIRED.PREC_DIST), counter 2 (L1D_PEND_MISS.PENDING,
 * CYCLE_ACTIVITY.*L1D_PENDING) and counter 3 (MEM_TRANS_RETIRED.
 * LOAD_LATENCY_*, PRECISE_STORE: PEBS only, never counted here) or to
 * "0,2,3" (INST_RETIRED.TOTAL_CYCLES_PS), so taking 0 (and 3) leaves every
 * countable event a counter it may use; 1 and 2 after them, where the
 * counter health check left 0 or 3 out. ONE_THREAD_ACTIVE and REF_XCLK
 * count on any general counter ("0,1,2,3"). REF_XCLK needs a counter of
 * its own only without fixed counter 2, from which it is derived
 * otherwise (pmu/sibling.h). Events keep at least two counters. */
uint32_t bt_plan_sibling_gp(const struct bt_pmu_caps *caps, int *ota, int *xclk)
{
	static const uint8_t order[4] = { 0, 3, 1, 2 };
	int want[2] = { -1, -1 };
	unsigned need = caps->fixed_mask & (1u << 2) ? 1 : 2, got = 0;
	bool on = caps->sibling_probe && !caps->sibling_probe_off &&
		  caps->kind == BT_PMU_INTEL_ARCH && !caps->perf_metrics &&
		  !(caps->fixed_mask & (1u << 3)) &&
		  (unsigned)__builtin_popcount(caps->gp_mask) >= need + 2;
	for (unsigned k = 0; on && k < 4 && got < need; k++)
		if (caps->gp_mask & (1u << order[k]))
			want[got++] = order[k];
	on = on && got == need;
	if (ota)
		*ota = on ? want[0] : -1;
	if (xclk)
		*xclk = on && need == 2 ? want[1] : -1;
	return on ? 1u << want[0] | (need == 2 ? 1u << want[1] : 0) : 0;
}

/* The highest counters, so that events keep the low ones they are listed
 * with; AMD's core counters take any event (APM vol. 2 §13.2.1). */
uint32_t bt_plan_reserved_gp(const struct bt_pmu_caps *caps, int *inst, int *smi)
{
	int want_inst = -1, want_smi = -1;
	uint32_t m = 0;
	if (amd_kind(caps)) {
		for (int i = BT_PMU_MAX_GP - 1; i >= 0; i--) {
			if (!(caps->gp_mask & (1u << i)))
				continue;
			if (want_inst < 0)
				want_inst = i;
			else if (want_smi < 0 && caps->amd_smi_rx)
				want_smi = i;
		}
		/* Events keep at least two counters (one with the instruction
		 * count alone). */
		if (want_smi >= 0 && __builtin_popcount(caps->gp_mask) < 4)
			want_smi = -1;
		if (want_inst >= 0 && __builtin_popcount(caps->gp_mask) < 2)
			want_inst = -1;
	}
	m |= bt_plan_sibling_gp(caps, NULL, NULL);
	if (want_inst >= 0)
		m |= 1u << want_inst;
	if (want_smi >= 0)
		m |= 1u << want_smi;
	if (inst)
		*inst = want_inst;
	if (smi)
		*smi = want_smi;
	return m;
}

const char *bt_plan_os_refused(const struct bt_event *e, const struct bt_pmu_caps *caps,
			       char *buf, size_t len)
{
	if (!caps->os_filter || !caps->os_filter->refuse ||
	    (e->source != BT_SRC_PMC && e->source != BT_SRC_PERF_METRICS))
		return NULL;
	return caps->os_filter->refuse(caps->os_filter, e, buf, len);
}

bool bt_plan_counted_form(const struct bt_event *e, const struct bt_pmu_caps *caps,
			  struct bt_event *ret)
{
	struct bt_event twin;
	bool changed = bt_event_fixed_to_gp(e, caps, &twin);
	const struct bt_event *cur = changed ? &twin : e;
	const struct bt_os_event_filter *f = caps->os_filter;

	if (f && f->adapt && f->adapt(f, cur, ret))
		return true;
	if (changed)
		*ret = twin;
	return changed;
}

uint32_t bt_plan_allowed(const struct bt_event *e, const struct bt_pmu_caps *caps,
			 const struct bt_plan_opts *opts)
{
	uint32_t m = e->counters;
	if (opts && opts->smt_off && e->counters_ht_off)
		m = e->counters_ht_off;
	uint32_t have = caps->gp_mask & ~bt_plan_reserved_gp(caps, NULL, NULL);
	int extra = opts && opts->mutation ? opts->mutation->extra_counters : 0;
	if (extra > 0) {
		/* TEST ONLY: phantom counters above the real ones, open to all. */
		uint32_t phantom = (uint32_t)(((1ull << (caps->num_gp + extra)) - 1) & ~(uint64_t)have);
		return (m & have) | (m ? phantom : 0);
	}
	return m & have;
}

int bt_plan_msr_slot(uint32_t msr)
{
	switch (msr) {
	case MSR_OFFCORE_RSP_0: return BT_PLAN_MSR_OFFCORE0;
	case MSR_OFFCORE_RSP_1: return BT_PLAN_MSR_OFFCORE1;
	case MSR_PEBS_LD_LAT: return BT_PLAN_MSR_LDLAT;
	case MSR_PEBS_FRONTEND: return BT_PLAN_MSR_FRONTEND;
	}
	return -1;
}

unsigned bt_plan_msr_options(const struct bt_event *e, const struct bt_pmu_caps *caps)
{
	/* The encoder decides which MSR an encoding selects on this CPU
	 * (pmu/extra-msr.c); the alternative of an OFFCORE_RESPONSE pair is an
	 * option only when the event declares it (code2) and it encodes. */
	struct bt_encoding enc;
	unsigned opt = 0;
	if (!e->msr_index || bt_event_encode_gp(e, caps, false, &enc, NULL) != BT_OK)
		return 0;
	int slot = bt_plan_msr_slot(enc.extra_msr);
	if (slot >= 0)
		opt |= 1u << slot;
	if (e->code2 && bt_event_encode_gp(e, caps, true, &enc, NULL) == BT_OK &&
	    (slot = bt_plan_msr_slot(enc.extra_msr)) >= 0)
		opt |= 1u << slot;
	return opt;
}

bool bt_plan_same_encoding(const struct bt_event *a, const struct bt_event *b)
{
	const uint8_t mask = (uint8_t)~BT_EVF_ALONE;
	return a->source == b->source && a->code == b->code && a->code2 == b->code2 &&
	       a->umask == b->umask && a->umask_ext == b->umask_ext && a->cmask == b->cmask &&
	       (a->flags & mask) == (b->flags & mask) && a->msr_index == b->msr_index &&
	       (a->msr_index == 0 || a->msr_value == b->msr_value);
}

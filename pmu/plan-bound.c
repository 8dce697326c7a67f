/* SPDX-License-Identifier: MIT */
/*
 * The lower bound on the number of groups, and the plan validator. Both
 * look only at the events and the PMU, never at how the planner works.
 *
 * Lower bound. Only general-counter events create groups (fixed-counter,
 * PERF_METRICS, TSC and duration events ride along in every group); events
 * with the same encoding count once, whether TakenAlone or not (one counter
 * counts them all), and such an encoding is TakenAlone if any of its events
 * is. Let A be the TakenAlone encodings and N the others. A TakenAlone
 * event excludes every other general-counter event from its group, so no
 * group serves both, and
 *
 *     groups >= |A| + max(capacity, hall, msr)        (|N| > 0)
 *
 *   capacity = ceil(|N| / counters): each group has `counters` counters;
 *   hall     = max over counter subsets S of ceil(|{e in N: allowed(e) ⊆ S}| / |S|):
 *              events confined to S get at most |S| counters per group
 *              (Hall's condition, e.g. events restricted to counter 2 need
 *              a group each; capacity is the case S = all counters);
 *   msr      = max of: distinct MSR_PEBS_LD_LAT values; distinct
 *              MSR_PEBS_FRONTEND values; distinct values of events that can
 *              only use MSR_OFFCORE_RSP_0 (resp. _1); ceil(distinct
 *              OFFCORE_RSP values / 2), since a group holds one value per MSR
 *              and OCR events may use either MSR of the pair.
 *
 * If nothing needs a general counter but something is measured, one run is
 * still needed: bound 1.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/event-encode.h"
#include "pmu/msr.h"
#include "pmu/plan.h"

static int count_distinct(const uint64_t *v, int n)
{
	int d = 0;
	for (int i = 0; i < n; i++) {
		bool seen = false;
		for (int j = 0; j < i && !seen; j++)
			seen = v[j] == v[i];
		d += !seen;
	}
	return d;
}

static bool is_gp_event(const struct bt_event *e, const struct bt_pmu_caps *caps,
			const struct bt_plan_opts *opts)
{
	struct bt_encoding enc;
	return e->source == BT_SRC_PMC && !bt_event_fits_fixed(e, caps) &&
	       bt_event_encode_gp(e, caps, false, &enc, NULL) == BT_OK &&
	       bt_plan_allowed(e, caps, opts) != 0;
}

static bool is_measured(const struct bt_event *e, const struct bt_pmu_caps *caps,
			const struct bt_plan_opts *opts)
{
	switch (e->source) {
	case BT_SRC_TSC:
	case BT_SRC_DURATION:
		return true;
	case BT_SRC_PERF_METRICS: {
		char why[192];
		if (bt_plan_os_refused(e, caps, why, sizeof(why)))
			return false;
	}
		return caps->perf_metrics && (caps->fixed_mask & (1u << 3)) &&
		       e->pm_field < caps->perf_metrics_fields;
	case BT_SRC_PMC: {
		char why[192];
		if (bt_plan_os_refused(e, caps, why, sizeof(why)))
			return false;
		return bt_event_fits_fixed(e, caps) || is_gp_event(e, caps, opts);
	}
	}
	return false;
}

int bt_plan_lower_bound(const struct bt_event *const *events, int n,
			const struct bt_pmu_caps *caps, const struct bt_plan_opts *opts,
			struct bt_plan_scratch *scratch, struct bt_plan_bound *ret)
{
	struct bt_plan_bound b;
	memset(&b, 0, sizeof(b));
	/* The caller's memory (plan.h: too large for a UEFI stack). */
	uint32_t *allowed = scratch->bound.allowed;
	uint64_t *ldlat = scratch->bound.ldlat, *fe = scratch->bound.fe, *ocr = scratch->bound.ocr,
		 *ocr0 = scratch->bound.ocr0, *ocr1 = scratch->bound.ocr1;
	int n_free = 0, n_ldlat = 0, n_fe = 0, n_ocr = 0, n_ocr0 = 0, n_ocr1 = 0;
	bool measured = false;
	int counters = __builtin_popcount(caps->gp_mask & ~bt_plan_reserved_gp(caps, NULL, NULL)) +
		       (opts && opts->mutation ? opts->mutation->extra_counters : 0);
	if (n > BT_PLAN_MAX_EVENTS)
		n = BT_PLAN_MAX_EVENTS;

	/* Distinct general-counter encodings (TakenAlone is not part of the
	 * encoding): rep[i] is the first event of i's encoding, and an
	 * encoding is TakenAlone if any of its events is. */
	int *rep = scratch->bound.rep;
	bool *any_alone = scratch->bound.any_alone;
	for (int i = 0; i < n; i++) {
		rep[i] = -1;
		any_alone[i] = false;
		const struct bt_event *e = events[i];
		if (!is_measured(e, caps, opts))
			continue;
		measured = true;
		if (!is_gp_event(e, caps, opts))
			continue;
		rep[i] = i;
		for (int j = 0; j < i; j++)
			if (rep[j] == j && bt_plan_same_encoding(e, events[j])) {
				rep[i] = j;
				break;
			}
		if (e->flags & BT_EVF_ALONE)
			any_alone[rep[i]] = true;
	}
	for (int i = 0; i < n; i++) {
		const struct bt_event *e = events[i];
		if (rep[i] != i)
			continue;
		b.gp_events++;
		if (any_alone[i]) {
			b.alone++;
			continue;
		}
		allowed[n_free++] = bt_plan_allowed(e, caps, opts);
		unsigned opt = bt_plan_msr_options(e, caps);
		if (opt & (1u << BT_PLAN_MSR_LDLAT))
			ldlat[n_ldlat++] = e->msr_value;
		if (opt & (1u << BT_PLAN_MSR_FRONTEND))
			fe[n_fe++] = e->msr_value;
		if (opt & ((1u << BT_PLAN_MSR_OFFCORE0) | (1u << BT_PLAN_MSR_OFFCORE1))) {
			ocr[n_ocr++] = e->msr_value;
			if (opt == (1u << BT_PLAN_MSR_OFFCORE0))
				ocr0[n_ocr0++] = e->msr_value;
			if (opt == (1u << BT_PLAN_MSR_OFFCORE1))
				ocr1[n_ocr1++] = e->msr_value;
		}
	}
	if (n_free > 0 && counters > 0) {
		b.capacity = (n_free + counters - 1) / counters;
		uint32_t all = 0;
		for (int i = 0; i < n_free; i++)
			all |= allowed[i];
		/* Every subset S of the counters in use (at most 2^16). */
		for (uint32_t s = all; s; s = (s - 1) & all) {
			int inside = 0;
			for (int i = 0; i < n_free; i++)
				inside += (allowed[i] & ~s) == 0;
			int size = __builtin_popcount(s);
			int need = (inside + size - 1) / size;
			if (need > b.hall) {
				b.hall = need;
				b.hall_set = s;
			}
		}
		int m = count_distinct(ldlat, n_ldlat);
		int v = count_distinct(fe, n_fe);
		if (v > m) m = v;
		v = (count_distinct(ocr, n_ocr) + 1) / 2;
		if (v > m) m = v;
		v = count_distinct(ocr0, n_ocr0);
		if (v > m) m = v;
		v = count_distinct(ocr1, n_ocr1);
		if (v > m) m = v;
		b.msr = m;
	}
	int rest = b.capacity;
	if (b.hall > rest) rest = b.hall;
	if (b.msr > rest) rest = b.msr;
	b.total = b.alone + rest;
	if (b.total == 0 && measured)
		b.total = 1;
	if (ret)
		*ret = b;
	return b.total;
}

#include "pmu/fail.h"

static const char *ename(const struct bt_event *const *events, int i)
{
	return events[i]->name ? events[i]->name : "(unnamed)";
}

bt_status bt_plan_validate(const struct bt_plan *p, const struct bt_event *const *events, int n,
			   const struct bt_pmu_caps *caps, const struct bt_plan_opts *opts,
			   struct bt_plan_scratch *scratch, struct bt_diag *d)
{
	static const struct bt_plan_opts no_opts;
	struct bt_plan_opts real = opts ? *opts : no_opts;
	real.mutation = NULL; /* validate against the PMU as it really is */
	if (p->n_events != n)
		FAIL("plan is for %d events, %d given", p->n_events, n);
	if (p->n_groups < 0 || p->n_groups > BT_PLAN_MAX_GROUPS)
		FAIL("bad group count %d", p->n_groups);
	int *times_placed = scratch->check.times_placed;
	memset(times_placed, 0, sizeof(scratch->check.times_placed));

	/* The driver counts only what the per-event table (p->ev) says and
	 * reads counters through it (bt_pmu_read): it must agree with the
	 * groups, or one event's count comes back as another's. */
	if (caps->kind == BT_PMU_INTEL_ARCH ? (p->fixed_mask & ~caps->fixed_mask) != 0
					    : p->fixed_mask != 0)
		FAIL("the plan carries fixed counters 0x%X, the PMU has 0x%X", p->fixed_mask,
		     caps->kind == BT_PMU_INTEL_ARCH ? caps->fixed_mask : 0);
	if (p->perf_metrics && !caps->perf_metrics)
		FAIL("the plan reads PERF_METRICS, which the PMU lacks");
	/* AMD: the run's own counts on the reserved counters (plan.h). */
	int want_inst, want_smi;
	bt_plan_reserved_gp(caps, &want_inst, &want_smi);
	if (p->has_inst_gp != (want_inst >= 0) || (want_inst >= 0 && p->inst_gp != want_inst))
		FAIL("the plan counts retired instructions on %s%d, the PMU reserves %d",
		     p->has_inst_gp ? "general counter " : "no counter, not ",
		     p->has_inst_gp ? p->inst_gp : 0, want_inst);
	if (p->has_smi_gp != (want_smi >= 0) || (want_smi >= 0 && p->smi_gp != want_smi))
		FAIL("the plan counts SMIs on %s%d, the PMU reserves %d",
		     p->has_smi_gp ? "general counter " : "no counter, not ",
		     p->has_smi_gp ? p->smi_gp : 0, want_smi);
	int want_ota, want_xclk;
	bt_plan_sibling_gp(caps, &want_ota, &want_xclk);
	if (p->has_sibling_gp != (want_ota >= 0) || p->has_xclk_gp != (want_xclk >= 0) ||
	    (want_ota >= 0 && p->ota_gp != want_ota) ||
	    (want_xclk >= 0 && p->xclk_gp != want_xclk))
		FAIL("the plan counts the SMT sibling's activity on %s, the PMU reserves "
		     "counters %d and %d", p->has_sibling_gp ? "other counters" : "no counters",
		     want_ota, want_xclk);
	bool *alone_ev = scratch->check.alone_ev;
	for (int i = 0; i < n; i++)
		alone_ev[i] = events[i]->flags & BT_EVF_ALONE;
	for (int i = 0; i < n; i++) {
		const struct bt_plan_event *pe = &p->ev[i];
		if (pe->place == BT_PLACE_GP && pe->alias_of >= 0 && pe->alias_of < n) {
			const struct bt_plan_event *t = &p->ev[pe->alias_of];
			if (t->place != BT_PLACE_GP || t->alias_of >= 0 || pe->group != t->group ||
			    pe->counter != t->counter || pe->code2 != t->code2)
				FAIL("%s: counted as %s, but the plan places the two differently",
				     ename(events, i), ename(events, pe->alias_of));
			if (alone_ev[i])
				alone_ev[pe->alias_of] = true;
		}
	}

	for (int g = 0; g < p->n_groups; g++) {
		const struct bt_plan_group *pg = &p->groups[g];
		uint32_t reserved = bt_plan_reserved_gp(caps, NULL, NULL);
		if (pg->n_gp > __builtin_popcount(caps->gp_mask & ~reserved))
			FAIL("group %d: %d events on general counters, the PMU has %d for events", g,
			     pg->n_gp, __builtin_popcount(caps->gp_mask & ~reserved));
		uint32_t used = 0;
		bool have_msr[BT_PLAN_MSR_SLOTS] = { false };
		uint64_t msr_val[BT_PLAN_MSR_SLOTS] = { 0 };
		bool alone = false;
		for (int i = 0; i < pg->n_gp; i++) {
			const struct bt_plan_slot *sl = &pg->gp[i];
			if (sl->event >= n)
				FAIL("group %d: event index %d out of range", g, sl->event);
			const struct bt_event *e = events[sl->event];
			const char *nm = ename(events, sl->event);
			if (sl->counter >= caps->num_gp || !(caps->gp_mask & (1u << sl->counter)))
				FAIL("group %d: %s on general counter %d, which does not exist", g, nm,
				     sl->counter);
			if (used & (1u << sl->counter))
				FAIL("group %d: general counter %d assigned twice", g, sl->counter);
			const struct bt_plan_event *pe = &p->ev[sl->event];
			if (pe->place != BT_PLACE_GP || pe->alias_of >= 0 || pe->group != g ||
			    pe->counter != sl->counter || pe->code2 != sl->code2)
				FAIL("group %d: %s is on general counter %d%s here, but the plan's event "
				     "table says group %d, counter %d%s", g, nm, sl->counter,
				     sl->code2 ? " (code2)" : "", pe->group, pe->counter,
				     pe->code2 ? " (code2)" : "");
			used |= 1u << sl->counter;
			if (!(bt_plan_allowed(e, caps, &real) & (1u << sl->counter)))
				FAIL("group %d: %s may not use general counter %d (allowed 0x%X)", g, nm,
				     sl->counter, bt_plan_allowed(e, caps, &real));
			struct bt_encoding enc;
			if (bt_event_encode_gp(e, caps, sl->code2, &enc, d) != BT_OK) {
				bt_diag_prefix(d, "group %d", g);
				return BT_ERR_INVALID;
			}
			if (alone_ev[sl->event])
				alone = true;
			int slot = bt_plan_msr_slot(enc.extra_msr);
			if (slot >= 0) {
				if (have_msr[slot] && msr_val[slot] != enc.extra_value)
					FAIL("group %d: %s needs %s = 0x%llx, another event needs 0x%llx", g,
					     nm, bt_plan_msr_name(slot), (unsigned long long)enc.extra_value,
					     (unsigned long long)msr_val[slot]);
				have_msr[slot] = true;
				msr_val[slot] = enc.extra_value;
				if (!pg->msr_used[slot] || pg->msr_value[slot] != enc.extra_value)
					FAIL("group %d: %s = 0x%llx needed by %s is not what the group programs",
					     g, bt_plan_msr_name(slot), (unsigned long long)enc.extra_value, nm);
			}
			times_placed[sl->event]++;
		}
		if (alone && pg->n_gp > 1)
			FAIL("group %d: a TakenAlone event shares the group with %d other events", g,
			     pg->n_gp - 1);
	}
	bool pm_needed = false;
	for (int i = 0; i < n; i++) {
		const struct bt_event *e = events[i];
		const struct bt_plan_event *pe = &p->ev[i];
		bool measurable = is_measured(e, caps, &real);
		switch (pe->place) {
		case BT_PLACE_GP:
			if (pe->alias_of >= 0) {
				if (pe->alias_of >= n || !bt_plan_same_encoding(e, events[pe->alias_of]) ||
				    times_placed[pe->alias_of] != 1)
					FAIL("%s: counted as %d, which is not the same encoding", ename(events, i),
					     pe->alias_of);
				if (times_placed[i])
					FAIL("%s: an alias is also placed itself", ename(events, i));
			} else if (times_placed[i] != 1) {
				FAIL("%s: placed in %d groups", ename(events, i), times_placed[i]);
			}
			break;
		case BT_PLACE_FIXED:
			if (!bt_event_fits_fixed(e, caps) || pe->counter != e->fixed ||
			    !(p->fixed_mask & (1u << pe->counter)))
				FAIL("%s: cannot be counted on fixed counter %d", ename(events, i), pe->counter);
			break;
		case BT_PLACE_PERF_METRICS:
			if (e->source != BT_SRC_PERF_METRICS || !caps->perf_metrics ||
			    pe->counter != e->pm_field || pe->counter >= caps->perf_metrics_fields)
				FAIL("%s: not a PERF_METRICS field of this PMU", ename(events, i));
			pm_needed = true;
			break;
		case BT_PLACE_FREE:
			if (e->source != BT_SRC_TSC && e->source != BT_SRC_DURATION)
				FAIL("%s: only TSC and duration are free", ename(events, i));
			break;
		case BT_PLACE_UNMEASURABLE:
			if (measurable)
				FAIL("%s: measurable but reported as unmeasurable", ename(events, i));
			break;
		default:
			FAIL("%s: not placed", ename(events, i));
		}
		if (pe->place != BT_PLACE_GP && times_placed[i])
			FAIL("%s: on a general counter but not planned there", ename(events, i));
	}
	if (pm_needed && (!p->perf_metrics || !(p->fixed_mask & (1u << 3))))
		FAIL("PERF_METRICS fields need fixed counter 3 (SLOTS) in the same group");
	int lb = bt_plan_lower_bound(events, n, caps, &real, scratch, NULL);
	if (p->n_groups < lb)
		FAIL("%d groups is below the lower bound %d: the plan or the bound is wrong",
		     p->n_groups, lb);
	return BT_OK;
}

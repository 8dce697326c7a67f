/* SPDX-License-Identifier: MIT */
/*
 * The group planner. Events are classified (fixed counter, PERF_METRICS
 * field, free, unmeasurable, general counter), general-counter events with
 * the same encoding are merged, and then the fewest groups are searched for,
 * starting at the lower bound (plan-bound.c): TakenAlone events get a group
 * each; the others are placed least flexible first (fewest allowed counters,
 * extra-MSR users first) by a depth-first search over groups with a step
 * budget (limited backtracking). Whether an event fits a group is decided
 * by exact bipartite matching of the group's events to their allowed
 * counters, so a restricted event never blocks a flexible one needlessly.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/event-encode.h"
#include "pmu/plan.h"

/* ------------------------------------------------------------ search state */

/* The items (struct bt_plan_item) and the groups being filled (struct
 * bt_plan_group_state) live in the caller's struct bt_plan_scratch (plan.h). */

struct search {
	const struct bt_plan_item *items;
	int n_items;
	int *order;
	struct bt_plan_group_state *g;
	int n_groups;
	int capacity;             /* counters (incl. test-only phantom ones) */
	long steps, max_steps;
};

/* Kuhn's augmenting paths: can the group's events be given distinct
 * allowed counters? Optionally returns the assignment. */
static bool try_kuhn(const uint32_t *allowed, int e, int *owner, bool *seen, int capacity)
{
	for (int c = 0; c < capacity; c++) {
		if (!(allowed[e] & (1u << c)) || seen[c])
			continue;
		seen[c] = true;
		if (owner[c] < 0 || try_kuhn(allowed, owner[c], owner, seen, capacity)) {
			owner[c] = e;
			return true;
		}
	}
	return false;
}

static bool match_counters(const uint32_t *allowed, int n, int capacity, int *ret_counter)
{
	int owner[32];
	if (n > capacity)
		return false;
	for (int c = 0; c < 32; c++)
		owner[c] = -1;
	for (int e = 0; e < n; e++) {
		bool seen[32] = { false };
		if (!try_kuhn(allowed, e, owner, seen, capacity))
			return false;
	}
	if (ret_counter)
		for (int c = 0; c < capacity; c++)
			if (owner[c] >= 0)
				ret_counter[owner[c]] = c;
	return true;
}

static bool group_fits(const struct search *s, const struct bt_plan_group_state *g, int item)
{
	uint32_t allowed[BT_PMU_MAX_GP + 8];
	if (g->n + 1 > s->capacity)
		return false;
	for (int i = 0; i < g->n; i++)
		allowed[i] = s->items[g->item[i]].allowed;
	allowed[g->n] = s->items[item].allowed;
	return match_counters(allowed, g->n + 1, s->capacity, NULL);
}

static bool msr_ok(const struct bt_plan_group_state *g, int slot, uint64_t value)
{
	return g->msr_refs[slot] == 0 || g->msr_value[slot] == value;
}

static void push(struct bt_plan_group_state *g, const struct bt_plan_item *it, int item, int slot)
{
	g->item[g->n] = item;
	g->msr_choice[g->n] = slot;
	g->n++;
	if (slot >= 0) {
		g->msr_value[slot] = it->msr_value;
		g->msr_refs[slot]++;
	}
	if (it->alone)
		g->alone = true;
}

static void pop(struct bt_plan_group_state *g, const struct bt_plan_item *it)
{
	g->n--;
	int slot = g->msr_choice[g->n];
	if (slot >= 0)
		g->msr_refs[slot]--;
	if (it->alone)
		g->alone = false;
}

/* Place items order[k..] into the groups; depth-first with a step budget. */
static bool place(struct search *s, int k)
{
	if (k == s->n_items)
		return true;
	if (++s->steps > s->max_steps)
		return false;
	int item = s->order[k];
	const struct bt_plan_item *it = &s->items[item];
	bool tried_empty = false;
	for (int gi = 0; gi < s->n_groups; gi++) {
		struct bt_plan_group_state *g = &s->g[gi];
		if (g->n == 0) {
			/* Empty groups are interchangeable: try only one. */
			if (tried_empty)
				continue;
			tried_empty = true;
		}
		if (g->alone || (it->alone && g->n > 0))
			continue;
		if (!group_fits(s, g, item))
			continue;
		for (int slot = -1; slot < BT_PLAN_MSR_SLOTS; slot++) {
			if (it->msr_opts ? (slot < 0 || !(it->msr_opts & (1u << slot))) : slot >= 0)
				continue;
			if (slot >= 0 && !msr_ok(g, slot, it->msr_value))
				continue;
			push(g, it, item, slot);
			if (place(s, k + 1))
				return true;
			pop(g, it);
			if (s->steps > s->max_steps)
				return false;
		}
	}
	return false;
}

/* Least flexible first: TakenAlone, then extra-MSR users with fewer
 * options, then fewer allowed counters; ties keep input order. */
static int flex_key(const struct bt_plan_item *it)
{
	int k = __builtin_popcount(it->allowed) * 8;
	if (it->alone)
		return -1000;
	if (it->msr_opts)
		k -= 400 - __builtin_popcount(it->msr_opts) * 100;
	return k;
}

/* order[] = 0..n-1 sorted by (key[i], i). Insertion sort: n is at most
 * BT_PLAN_MAX_EVENTS and the key travels as an argument, not through a
 * global as a qsort comparator would need it. The order is total (ties
 * broken by index), so any correct sort gives this same order. */
static void sort_by_key(int *order, const int *key, int n)
{
	for (int i = 0; i < n; i++) {
		int x = i, j = i;
		for (; j > 0 && (key[order[j - 1]] > key[x] ||
				 (key[order[j - 1]] == key[x] && order[j - 1] > x)); j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
}

static void classify(const struct bt_event *e, const struct bt_pmu_caps *caps,
		     const struct bt_plan_opts *opts, struct bt_plan_event *pe)
{
	struct bt_diag d;
	pe->group = -1;
	pe->alias_of = -1;
	switch (e->source) {
	case BT_SRC_TSC:
	case BT_SRC_DURATION:
		pe->place = BT_PLACE_FREE;
		return;
	case BT_SRC_UNCORE:
		pe->place = BT_PLACE_UNMEASURABLE;
		snprintf(pe->reason, sizeof(pe->reason), "uncore event: the core PMU cannot count it");
		return;
	case BT_SRC_PERF_METRICS:
		if (bt_plan_os_refused(e, caps, pe->reason, sizeof(pe->reason))) {
			pe->place = BT_PLACE_UNMEASURABLE;
		} else if (!caps->perf_metrics || !(caps->fixed_mask & (1u << 3)) || e->pm_field >= 8) {
			pe->place = BT_PLACE_UNMEASURABLE;
			snprintf(pe->reason, sizeof(pe->reason),
				 "PERF_METRICS is not available (IA32_PERF_CAPABILITIES[15] clear "
				 "or no fixed counter 3)");
		} else if (e->pm_field >= caps->perf_metrics_fields) {
			/* ICL/TGL have the 4 level-1 fields; reading byte 4+ there
			 * reads a reserved byte (0), not a measurement. */
			pe->place = BT_PLACE_UNMEASURABLE;
			snprintf(pe->reason, sizeof(pe->reason),
				 "PERF_METRICS field %u does not exist here: this CPU has %u fields "
				 "(level-2 fields need Golden Cove or later)", e->pm_field,
				 caps->perf_metrics_fields);
		} else {
			pe->place = BT_PLACE_PERF_METRICS;
			pe->counter = e->pm_field;
		}
		return;
	case BT_SRC_PMC:
		if (bt_plan_os_refused(e, caps, pe->reason, sizeof(pe->reason))) {
			pe->place = BT_PLACE_UNMEASURABLE;
			return;
		}
		break;
	default:
		pe->place = BT_PLACE_UNMEASURABLE;
		snprintf(pe->reason, sizeof(pe->reason), "unknown event source %u", e->source);
		return;
	}
	if (bt_event_fits_fixed(e, caps)) {
		pe->place = BT_PLACE_FIXED;
		pe->counter = (uint8_t)e->fixed;
		return;
	}
	struct bt_encoding enc;
	if (bt_event_encode_gp(e, caps, false, &enc, &d) != BT_OK) {
		/* The encoder's message starts with the event's name, which
		 * whoever prints the reason prints already. */
		const char *why = d.text;
		size_t nl = e->name ? strlen(e->name) : 0;
		if (nl && strncmp(d.text, e->name, nl) == 0 && d.text[nl] == ':' &&
		    d.text[nl + 1] == ' ')
			why = d.text + nl + 2;
		pe->place = BT_PLACE_UNMEASURABLE;
		size_t len = strlen(why);
		if (len >= sizeof(pe->reason))
			len = sizeof(pe->reason) - 1;
		memcpy(pe->reason, why, len);
		pe->reason[len] = 0;
		return;
	}
	if (!bt_plan_allowed(e, caps, opts)) {
		pe->place = BT_PLACE_UNMEASURABLE;
		if (e->counters == 0 && e->fixed >= 0 && e->fixed < BT_PMU_MAX_FIXED &&
		    caps->kind == BT_PMU_INTEL_ARCH && (caps->fixed_mask & (1u << e->fixed)))
			snprintf(pe->reason, sizeof(pe->reason),
				 "counts only on fixed counter %d, which every group counts in all "
				 "rings: this filtered variant needs a general counter", e->fixed);
		else if (e->counters == 0 && e->fixed >= 0)
			snprintf(pe->reason, sizeof(pe->reason),
				 "needs fixed counter %d, which this PMU lacks", e->fixed);
		else
			snprintf(pe->reason, sizeof(pe->reason),
				 "none of its allowed counters (mask 0x%X) exists on this PMU",
				 e->counters);
		return;
	}
	pe->place = BT_PLACE_GP;
}

bt_status bt_plan_events(const struct bt_event *const *events, int n,
			 const struct bt_pmu_caps *caps, const struct bt_plan_opts *opts,
			 struct bt_plan_scratch *scratch, struct bt_plan *ret)
{
	static const struct bt_plan_opts no_opts;
	if (!opts)
		opts = &no_opts;
	if (!events || n < 0 || n > BT_PLAN_MAX_EVENTS || !caps || !scratch || !ret)
		return BT_ERR_INVALID;
	struct bt_plan *p = ret;
	memset(p, 0, sizeof(*p));
	p->n_events = n;
	p->num_gp = caps->num_gp;
	if (caps->kind == BT_PMU_INTEL_ARCH)
		p->fixed_mask = caps->fixed_mask;
	p->perf_metrics = caps->perf_metrics && (caps->fixed_mask & (1u << 3));
	int inst_gp, smi_gp;
	bt_plan_reserved_gp(caps, &inst_gp, &smi_gp);
	p->has_inst_gp = inst_gp >= 0;
	p->inst_gp = (uint8_t)(inst_gp >= 0 ? inst_gp : 0);
	p->has_smi_gp = smi_gp >= 0;
	p->smi_gp = (uint8_t)(smi_gp >= 0 ? smi_gp : 0);
	int ota_gp, xclk_gp;
	bt_plan_sibling_gp(caps, &ota_gp, &xclk_gp);
	p->has_sibling_gp = ota_gp >= 0;
	p->has_xclk_gp = xclk_gp >= 0;
	p->ota_gp = (uint8_t)(ota_gp >= 0 ? ota_gp : 0);
	p->xclk_gp = (uint8_t)(xclk_gp >= 0 ? xclk_gp : 0);

	struct bt_plan_item *items = scratch->search.items;
	int *item_of = scratch->search.item_of;
	int n_items = 0;
	bool measured = false;
	for (int i = 0; i < n; i++) {
		struct bt_plan_event *pe = &p->ev[i];
		classify(events[i], caps, opts, pe);
		item_of[i] = -1;
		if (pe->place == BT_PLACE_UNMEASURABLE) {
			p->n_unmeasurable++;
			continue;
		}
		measured = true;
		if (pe->place != BT_PLACE_GP)
			continue;
		/* One counter counts identical encodings once, TakenAlone or
		 * not; the counted event is TakenAlone if any of them is. */
		for (int j = 0; j < i; j++)
			if (p->ev[j].place == BT_PLACE_GP && p->ev[j].alias_of < 0 &&
			    bt_plan_same_encoding(events[i], events[j])) {
				pe->alias_of = (int16_t)j;
				break;
			}
		if (pe->alias_of >= 0) {
			if (events[i]->flags & BT_EVF_ALONE)
				items[item_of[pe->alias_of]].alone = true;
			continue;
		}
		struct bt_encoding enc;
		bt_event_encode_gp(events[i], caps, false, &enc, NULL);
		item_of[i] = n_items;
		items[n_items] = (struct bt_plan_item){
			.event = i,
			.allowed = bt_plan_allowed(events[i], caps, opts),
			.msr_opts = bt_plan_msr_options(events[i], caps),
			.primary_slot = bt_plan_msr_slot(enc.extra_msr),
			.msr_value = events[i]->msr_value,
			.alone = (events[i]->flags & BT_EVF_ALONE) != 0,
		};
		n_items++;
	}

	p->lower_bound = bt_plan_lower_bound(events, n, caps, opts, scratch, &p->bound);
	if (!measured) {
		p->n_groups = 0;
		return BT_OK;
	}

	int *order = scratch->search.order;
	for (int i = 0; i < n_items; i++)
		scratch->search.key[i] = flex_key(&items[i]);
	sort_by_key(order, scratch->search.key, n_items);

	struct bt_plan_group_state *groups = scratch->search.groups;
	struct search s = {
		.items = items, .n_items = n_items, .order = order, .g = groups,
		/* Counter indices below this are tried (gaps of a v6 bitmap are
		 * excluded by the allowed masks). */
		.capacity = caps->num_gp + (opts->mutation ? opts->mutation->extra_counters : 0),
		.max_steps = opts->max_steps > 0 ? opts->max_steps : 200000,
	};
	int k = p->lower_bound > 0 ? p->lower_bound : 1;
	bool ok = false;
	for (; k <= BT_PLAN_MAX_GROUPS; k++) {
		memset(groups, 0, sizeof(groups[0]) * (size_t)k);
		s.n_groups = k;
		s.steps = 0;
		ok = place(&s, 0);
		p->search_steps += s.steps;
		if (ok)
			break;
	}
	if (!ok) {
		/* Greedy fallback so the caller sees which events are left out. */
		k = BT_PLAN_MAX_GROUPS;
		memset(groups, 0, sizeof(groups[0]) * (size_t)k);
		for (int i = 0; i < n_items; i++) {
			const struct bt_plan_item *it = &items[order[i]];
			bool placed = false;
			for (int gi = 0; gi < k && !placed; gi++) {
				struct bt_plan_group_state *g = &groups[gi];
				if (g->alone || (it->alone && g->n) || !group_fits(&s, g, order[i]))
					continue;
				for (int slot = -1; slot < BT_PLAN_MSR_SLOTS && !placed; slot++) {
					if (it->msr_opts ? (slot < 0 || !(it->msr_opts & (1u << slot))) : slot >= 0)
						continue;
					if (slot >= 0 && !msr_ok(g, slot, it->msr_value))
						continue;
					push(g, it, order[i], slot);
					placed = true;
				}
			}
			if (!placed)
				p->n_unplaced++;
		}
	}

	/* Write the groups out: the counter of each event from a final matching. */
	int used = 0;
	for (int gi = 0; gi < k; gi++) {
		struct bt_plan_group_state *g = &groups[gi];
		if (g->n == 0)
			continue;
		uint32_t allowed[BT_PMU_MAX_GP + 8];
		int counter[BT_PMU_MAX_GP + 8];
		for (int i = 0; i < g->n; i++)
			allowed[i] = items[g->item[i]].allowed;
		match_counters(allowed, g->n, s.capacity, counter);
		struct bt_plan_group *pg = &p->groups[used];
		pg->n_gp = (uint8_t)(g->n > BT_PMU_MAX_GP ? BT_PMU_MAX_GP : g->n);
		for (int i = 0; i < pg->n_gp; i++) {
			int ev = items[g->item[i]].event;
			pg->gp[i].event = (uint16_t)ev;
			pg->gp[i].counter = (uint8_t)counter[i];
			/* Programmed with the other encoding of its pair when the
			 * search gave it the other MSR. */
			pg->gp[i].code2 = g->msr_choice[i] >= 0 &&
					  g->msr_choice[i] != items[g->item[i]].primary_slot;
			int slot = g->msr_choice[i];
			if (slot >= 0) {
				pg->msr_used[slot] = true;
				pg->msr_value[slot] = items[g->item[i]].msr_value;
			}
			p->ev[ev].group = (int16_t)used;
			p->ev[ev].counter = pg->gp[i].counter;
			p->ev[ev].code2 = pg->gp[i].code2;
		}
		used++;
	}
	/* Anything measured needs at least one run. */
	p->n_groups = used ? used : 1;
	for (int i = 0; i < n; i++) {
		struct bt_plan_event *pe = &p->ev[i];
		if (pe->place == BT_PLACE_GP && pe->alias_of >= 0) {
			const struct bt_plan_event *orig = &p->ev[pe->alias_of];
			pe->group = orig->group;
			pe->counter = orig->counter;
			pe->code2 = orig->code2;
		}
		if (pe->place == BT_PLACE_GP && pe->group < 0)
			pe->place = BT_PLACE_NONE;
	}
	return p->n_unplaced ? BT_ERR_FULL : BT_OK;
}

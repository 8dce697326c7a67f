/* SPDX-License-Identifier: MIT */
/*
 * What the simulated PMU counts in a window: each enabled counter whose
 * programmed encoding matches a count-source entry advances by that entry's
 * count. The programmed registers are decoded here independently of the
 * driver's encoder (pmu/event-encode.c), so an encoding mistake there shows
 * up as a wrong (usually zero) count instead of being mirrored.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/sim-internal.h"

/* OS/USR as the event wants them: ":SUP" ring 0 only, ":USER" ring > 0
 * only, otherwise both. */
static bool priv_match(uint8_t flags, bool os, bool usr)
{
	if (flags & BT_EVF_SUP)
		return os && !usr;
	if (flags & BT_EVF_USER)
		return usr && !os;
	return os && usr;
}

static bool extra_msr_matches(const struct bt_sim *sim, uint16_t msr, uint64_t want)
{
	switch (msr) {
	case 0: return true;
	case MSR_OFFCORE_RSP_0: return sim->cfg.offcore && sim->regs.offcore[0] == want;
	case MSR_OFFCORE_RSP_1: return sim->cfg.offcore && sim->regs.offcore[1] == want;
	case MSR_PEBS_LD_LAT: return sim->cfg.ldlat && sim->regs.ldlat == want;
	case MSR_PEBS_FRONTEND: return sim->cfg.frontend && sim->regs.frontend == want;
	}
	return false;
}

/* Does general counter i's selector count entry e? */
static bool gp_matches(const struct bt_sim *sim, uint64_t sel, const struct bt_event *e)
{
	bool amd = sim->cfg.vendor == BT_VENDOR_AMD;
	if (e->source != BT_SRC_PMC)
		return false;
	unsigned code = sel & 0xFF;
	if (amd)
		code |= ((sel >> AMD_EVTSEL_EVENT_HI_SHIFT) & 0xF) << 8;
	unsigned umask = (sel >> EVTSEL_UMASK_SHIFT) & 0xFF;
	unsigned cmask = (sel >> EVTSEL_CMASK_SHIFT) & 0xFF;
	bool inv = sel & EVTSEL_INV, edge = sel & EVTSEL_EDGE;
	bool any = !amd && (sel & EVTSEL_ANY);
	bool eq = !amd && (sel & EVTSEL_EQ);
	unsigned umask2 = amd ? 0 : (sel >> EVTSEL_UMASK2_SHIFT) & 0xFF;
	if (amd && (sel & AMD_EVTSEL_GUESTONLY) && !(sel & AMD_EVTSEL_HOSTONLY))
		return false; /* we are the host: guest-only counts nothing */
	if (umask != e->umask || cmask != e->cmask || umask2 != e->umask_ext ||
	    inv != !!(e->flags & BT_EVF_INV) || edge != !!(e->flags & BT_EVF_EDGE) ||
	    any != !!(e->flags & BT_EVF_ANY) || eq != !!(e->flags & BT_EVF_EQ) ||
	    !priv_match(e->flags, sel & EVTSEL_OS, sel & EVTSEL_USR))
		return false;
	if (code == e->code && extra_msr_matches(sim, e->msr_index, e->msr_value))
		return true;
	/* The alternative code pairs with the second MSR of the pair (OCR:
	 * 0xB7 + OFFCORE_RSP_0, 0xBB + OFFCORE_RSP_1). */
	return e->code2 && code == e->code2 && e->msr_index == MSR_OFFCORE_RSP_0 &&
	       extra_msr_matches(sim, MSR_OFFCORE_RSP_1, e->msr_value);
}

static bool fixed_matches(unsigned i, uint64_t field, const struct bt_event *e)
{
	if (e->source != BT_SRC_PMC || e->fixed != (int)i || e->cmask ||
	    (e->flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_EQ)))
		return false;
	if (!!(field & FIXED_CTRL_ANY) != !!(e->flags & BT_EVF_ANY))
		return false;
	return priv_match(e->flags, field & FIXED_CTRL_OS, field & FIXED_CTRL_USR);
}

void bt_sim_pm_update(struct bt_sim *sim)
{
	uint64_t slots = sim->regs.fixed_ctr[3];
	uint64_t value = 0;
	for (int f = 0; f < sim->cfg.pm_fields; f++) {
		uint64_t acc = sim->pm_acc[f], b;
		if (slots == 0) {
			b = 0;
		} else {
			/* The smallest b with floor(slots*b/255) >= acc; it reproduces
			 * acc exactly iff acc is of the form floor(slots*k/255). */
			b = (acc * 255 + slots - 1) / slots;
		}
		if (b > 255 || (slots && slots * b / 255 != acc) || (!slots && acc)) {
			if (!sim->source_error[0])
				snprintf(sim->source_error, sizeof(sim->source_error),
					 "PERF_METRICS field %d: %llu slots of SLOTS=%llu is not "
					 "floor(SLOTS*b/255) for any byte b", f,
					 (unsigned long long)acc, (unsigned long long)slots);
			if (b > 255)
				b = 255;
		}
		value |= b << (8 * f);
	}
	sim->regs.perf_metrics = value;
}

static const struct bt_event *find_gp(const struct bt_sim *sim, const struct bt_sim_source *s,
				      uint64_t sel, uint64_t *count)
{
	for (size_t k = 0; s && k < s->n; k++)
		if (gp_matches(sim, sel, &s->entries[k].ev)) {
			*count = s->entries[k].count;
			return &s->entries[k].ev;
		}
	return NULL;
}

void bt_sim_count_window(struct bt_sim *sim, bt_window_fn *body)
{
	const struct bt_sim_source *s = sim->source;

	if (s && s->body && s->body != body)
		s = NULL; /* not the simulated workload: an empty window */
	const struct bt_sim_config *c = &sim->cfg;
	bool gp_on[BT_SIM_MAX_GP], fixed_on[BT_SIM_MAX_FIXED];
	/* Decide what counts before advancing anything: all counters see the
	 * same window. */
	for (unsigned i = 0; i < c->num_gp; i++)
		gp_on[i] = bt_sim_gp_enabled(sim, i);
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		fixed_on[i] = bt_sim_fixed_enabled(sim, i);
	bool pm_on = c->perf_metrics && fixed_on[3] &&
		     (sim->regs.global_ctrl & GLOBAL_PERF_METRICS);

	uint64_t tsc = c->tsc_per_window, cycles = 0;
	bool have_cycles = false;
	for (size_t k = 0; s && k < s->n; k++) {
		const struct bt_event *e = &s->entries[k].ev;
		if (e->source == BT_SRC_TSC)
			tsc = s->entries[k].count;
		if (e->source == BT_SRC_PMC && e->fixed == 1 && !e->flags && !have_cycles) {
			cycles = s->entries[k].count;
			have_cycles = true;
		}
	}
	if (s && s->tsc_per_window)
		tsc = s->tsc_per_window;

	for (unsigned i = 0; i < c->num_gp; i++) {
		uint64_t n;
		if (gp_on[i] && find_gp(sim, s, sim->regs.evtsel[i], &n))
			bt_sim_add_gp(sim, i, n);
	}
	for (unsigned i = 0; c->vendor == BT_VENDOR_INTEL && i < BT_SIM_MAX_FIXED; i++) {
		if (!fixed_on[i])
			continue;
		uint64_t field = (sim->regs.fixed_ctrl >> FIXED_CTRL_SHIFT(i)) & 0xF;
		for (size_t k = 0; s && k < s->n; k++)
			if (fixed_matches(i, field, &s->entries[k].ev)) {
				bt_sim_add_fixed(sim, i, s->entries[k].count);
				break;
			}
	}
	if (pm_on) {
		for (size_t k = 0; s && k < s->n; k++) {
			const struct bt_event *e = &s->entries[k].ev;
			if (e->source == BT_SRC_PERF_METRICS && e->pm_field < c->pm_fields)
				sim->pm_acc[e->pm_field] += s->entries[k].count;
		}
		bt_sim_pm_update(sim);
	}
	sim->tsc += tsc;
	sim->mperf += tsc;
	sim->aperf += have_cycles ? cycles : tsc;
	sim->smi += c->smi_per_window;
}

/* ------------------------------------------------------------ generator */

static uint64_t mix(uint64_t h, uint64_t v)
{
	/* FNV-1a over the 8 bytes of v, then a splitmix finaliser. */
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xFF;
		h *= 0x100000001B3ull;
	}
	return h;
}

static uint64_t finish(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t event_hash(const struct bt_event *e, uint64_t seed)
{
	uint64_t h = 0xCBF29CE484222325ull;
	h = mix(h, seed);
	h = mix(h, e->source | (uint64_t)e->flags << 8 | (uint64_t)e->code << 16 |
		       (uint64_t)e->code2 << 32 | (uint64_t)e->umask << 48 | (uint64_t)e->umask_ext << 56);
	h = mix(h, e->cmask | (uint64_t)(uint8_t)e->fixed << 8 | (uint64_t)e->pm_field << 16 |
		       (uint64_t)e->msr_index << 24);
	h = mix(h, e->msr_value);
	return finish(h);
}

bt_status bt_sim_generate_counts(const struct bt_event *const *events, size_t n,
				 uint64_t seed, struct bt_sim_count *out)
{
	uint64_t slots = 0;
	bool have_slots = false, need_slots = false;
	for (size_t i = 0; i < n; i++) {
		const struct bt_event *e = events[i];
		out[i].ev = *e;
		uint64_t h = event_hash(e, seed);
		switch (e->source) {
		case BT_SRC_PMC:
			out[i].count = 1000000 + h % 1000000000ull;
			if (e->fixed == 3 && !have_slots) {
				/* SLOTS = width x cycles: large, a multiple of 4 or 6 */
				slots = out[i].count * 4;
				out[i].count = slots;
				have_slots = true;
			}
			break;
		case BT_SRC_TSC:
			out[i].count = 2000000000ull + h % 1000000000ull;
			break;
		case BT_SRC_PERF_METRICS:
			need_slots = true;
			out[i].count = 0;
			break;
		default:
			out[i].count = 0; /* DURATION comes from the TSC; UNCORE is not counted */
			break;
		}
	}
	if (!need_slots)
		return BT_OK;
	if (!have_slots)
		return BT_ERR_INVALID;
	for (size_t i = 0; i < n; i++)
		if (events[i]->source == BT_SRC_PERF_METRICS) {
			uint64_t b = event_hash(events[i], seed) % 256;
			out[i].count = slots * b / 255;
		}
	return BT_OK;
}

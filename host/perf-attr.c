/* SPDX-License-Identifier: MIT */
/* Planned group -> perf_event attributes, read() buffer -> counts
 * (perf-attr.h). Pure: no system call. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host/perf-attr.h"
#include "pmu/event-encode.h"
#include "pmu/msr.h"

/* The kernel's pseudo-encodings of fixed counters 0..3 (perf-attr.h). */
static const uint32_t fixed_config[4] = { 0x00c0, 0x003c, 0x0300, BT_PERF_TD_SLOTS };
static const char *const fixed_what[4] = {
	"fixed counter 0 (instructions)", "fixed counter 1 (core cycles)",
	"fixed counter 2 (reference cycles)", "fixed counter 3 (TOPDOWN.SLOTS)",
};

static void member_init(struct bt_perf_member *m, uint64_t config, uint8_t role, uint8_t index,
			const struct bt_perf_attr_opts *o)
{
	memset(m, 0, sizeof(*m));
	m->attr.size = sizeof(m->attr);
	m->attr.type = o && o->type ? o->type : PERF_TYPE_RAW;
	m->attr.config = config;
	m->attr.read_format = BT_PERF_READ_FORMAT;
	m->attr.exclude_kernel = !(o && o->count_kernel);
	m->attr.exclude_hv = 1;
	m->role = role;
	m->index = index;
}

static bt_status gp_member(struct bt_perf_member *m, const struct bt_event *e, bool code2,
			   unsigned counter, const struct bt_pmu_caps *caps,
			   const struct bt_perf_attr_opts *o, struct bt_diag *d)
{
	struct bt_encoding enc;
	struct bt_diag ed = { "" };

	if (bt_event_encode_gp(e, caps, code2, &enc, &ed) != BT_OK) {
		bt_diag_set(d, "%s", ed.text);
		return BT_ERR_UNSUPPORTED;
	}
	/* The kernel owns the ring, interrupt and enable bits (it builds the
	 * selector from attr.config & its raw-event mask, then adds them). */
	uint64_t config = enc.evtsel & ~(uint64_t)(EVTSEL_USR | EVTSEL_OS | EVTSEL_INT | EVTSEL_EN);
	member_init(m, config, BT_PERF_GP, (uint8_t)counter, o);
	if (enc.extra_msr)
		m->attr.config1 = enc.extra_value;
	/* The event's own ring filter: ring 0 only counts nothing in user
	 * mode, so it counts ring 0 (exclude_user and exclude_kernel together
	 * would count nothing at all); the kernel then asks for
	 * perf_event_paranoid <= 1 or CAP_PERFMON (perf_allow_kernel), which
	 * the plan checked (host/perf-plan.c). */
	if ((enc.evtsel & EVTSEL_OS) && !(enc.evtsel & EVTSEL_USR)) {
		m->attr.exclude_user = 1;
		m->attr.exclude_kernel = 0;
	}
	snprintf(m->what, sizeof(m->what), "%s", e && e->name ? e->name : "an event");
	return BT_OK;
}

/* The plan's own counts on reserved general counters (plan.h): AMD
 * PMCx0C0 retired instructions, PMCx02B SMIs received (AMD PPR); Intel's
 * SMT sibling probe, CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE 0x3C/0x02 and
 * REF_XCLK 0x3C/0x01 (the event tables; perf's config is umask << 8 |
 * event, arch/x86/events/perf_event.h ARCH_PERFMON_EVENTSEL_*). */
static void own_member(struct bt_perf_member *m, uint16_t code, unsigned counter,
			   const char *what, const struct bt_perf_attr_opts *o)
{
	member_init(m, code, BT_PERF_GP, (uint8_t)counter, o);
	snprintf(m->what, sizeof(m->what), "%s", what);
}

bt_status bt_perf_group_attrs(const struct bt_plan *plan, int group,
			      const struct bt_event *const *events,
			      const struct bt_pmu_caps *caps, uint32_t fixed_used, bool pm,
			      const struct bt_perf_attr_opts *o, struct bt_perf_member *out,
			      int *ret_n, struct bt_diag *d)
{
	int n = 0;

	*ret_n = 0;
	if (!plan || group < 0 || group >= plan->n_groups) {
		bt_diag_set(d, "no group %d in the plan", group);
		return BT_ERR_INVALID;
	}
	if (pm && !(fixed_used & (1u << 3))) {
		bt_diag_set(d, "PERF_METRICS without fixed counter 3 (TOPDOWN.SLOTS), its group leader");
		return BT_ERR_INVALID;
	}
	/* Leader: SLOTS when the metric events follow it (the kernel demands
	 * it), else the fixed counters in order. */
	if (pm) {
		member_init(&out[n], BT_PERF_TD_SLOTS, BT_PERF_FIXED, 3, o);
		snprintf(out[n].what, sizeof(out[n].what), "%s", fixed_what[3]);
		n++;
	}
	for (unsigned k = 0; k < BT_PMU_MAX_FIXED; k++) {
		if (!(fixed_used & (1u << k)) || (pm && k == 3))
			continue;
		uint32_t cfg = o && o->fixed_config[k] ? o->fixed_config[k] : k < 4 ? fixed_config[k] : 0;
		if (!cfg) {
			bt_diag_set(d, "fixed counter %u: this kernel has no perf_event pseudo-encoding "
				    "for it", k);
			return BT_ERR_UNSUPPORTED;
		}
		member_init(&out[n], cfg, BT_PERF_FIXED, (uint8_t)k, o);
		if (k < 4)
			snprintf(out[n].what, sizeof(out[n].what), "%s", fixed_what[k]);
		else
			snprintf(out[n].what, sizeof(out[n].what), "fixed counter %u (0x%04x)", k, cfg);
		n++;
	}
	const struct bt_plan_group *g = &plan->groups[group];
	for (int k = 0; k < g->n_gp; k++) {
		const struct bt_event *e = g->gp[k].event < plan->n_events ? events[g->gp[k].event] : NULL;
		if (!e) {
			bt_diag_set(d, "group %d: general counter %u has no event", group,
				    (unsigned)g->gp[k].counter);
			return BT_ERR_INVALID;
		}
		bt_status st = gp_member(&out[n], e, g->gp[k].code2, g->gp[k].counter, caps, o, d);
		if (st != BT_OK)
			return st;
		n++;
	}
	if (plan->has_inst_gp)
		own_member(&out[n++], 0xC0, plan->inst_gp, "retired instructions (PMCx0C0)", o);
	if (plan->has_smi_gp)
		own_member(&out[n++], 0x2B, plan->smi_gp, "SMIs received (PMCx02B)", o);
	if (plan->has_sibling_gp)
		own_member(&out[n++], 0x023C, plan->ota_gp,
			   "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE (SMT sibling probe)", o);
	if (plan->has_xclk_gp)
		own_member(&out[n++], 0x013C, plan->xclk_gp,
			   "CPU_CLK_UNHALTED.REF_XCLK (SMT sibling probe)", o);
	if (pm) {
		bool field[8] = { false };
		for (int i = 0; i < plan->n_events; i++)
			if (plan->ev[i].place == BT_PLACE_PERF_METRICS && plan->ev[i].counter < 8)
				field[plan->ev[i].counter] = true;
		for (unsigned f = 0; f < 8; f++) {
			if (!field[f])
				continue;
			member_init(&out[n], BT_PERF_TD_METRIC(f), BT_PERF_METRIC, (uint8_t)f, o);
			snprintf(out[n].what, sizeof(out[n].what), "PERF_METRICS field %u (0x%04x)", f,
				 BT_PERF_TD_METRIC(f));
			n++;
		}
	}
	if (n == 0) {
		bt_diag_set(d, "group %d counts nothing", group);
		return BT_ERR_INVALID;
	}
	/* The leader starts the group (disabled until the window's enable) and
	 * is pinned: it counts all the time or not at all. Members follow it. */
	out[0].attr.disabled = 1;
	out[0].attr.pinned = 1;
	*ret_n = n;
	return BT_OK;
}

bt_status bt_perf_read_group(const void *buf, size_t bytes, int n, const uint64_t *ids,
			     const char *group_name, uint64_t *values, struct bt_diag *d)
{
	uint64_t w[3 + 2 * BT_PERF_MAX_MEMBERS];

	if (bytes == 0) {
		bt_diag_set(d, "%s could not be scheduled on the PMU as one pinned group (the "
			    "kernel put it in error state; it is never multiplexed)", group_name);
		return BT_ERR_FULL;
	}
	if (n <= 0 || n > BT_PERF_MAX_MEMBERS || bytes < 3 * sizeof(uint64_t) || bytes > sizeof(w) ||
	    bytes % sizeof(uint64_t)) {
		bt_diag_set(d, "%s: a read of %zu bytes is not a group of %d counters", group_name,
			    bytes, n);
		return BT_ERR_INVALID;
	}
	memcpy(w, buf, bytes);
	if (w[0] != (uint64_t)n || bytes != (3 + 2 * (size_t)n) * sizeof(uint64_t)) {
		bt_diag_set(d, "%s: the kernel returned %" PRIu64 " counters in %zu bytes, the group "
			    "has %d", group_name, w[0], bytes, n);
		return BT_ERR_INVALID;
	}
	if (w[1] != w[2]) {
		bt_diag_set(d, "%s was enabled %" PRIu64 " ns but counted only %" PRIu64 " ns: "
			    "multiplexed or descheduled; baretop does not scale counts",
			    group_name, w[1], w[2]);
		return BT_ERR_FULL;
	}
	for (int i = 0; i < n; i++) {
		if (w[3 + 2 * i + 1] != ids[i]) {
			bt_diag_set(d, "%s: counter %d has id %" PRIu64 ", expected %" PRIu64,
				    group_name, i, w[3 + 2 * i + 1], ids[i]);
			return BT_ERR_INVALID;
		}
		values[i] = w[3 + 2 * i];
	}
	return BT_OK;
}

/* SPDX-License-Identifier: MIT */
/*
 * The vendor-neutral session: argument and counter checks, per-run
 * TSC/APERF/MPERF/SMI, and turning raw counter values into per-event
 * counts. The vendor's registers are programmed by the driver chosen at
 * open (s->driver, pmu-driver.h: intel-pmu.c, amd-pmu.c); the
 * save-before-touch bookkeeping both use is in pmu-regs.c.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/pmu-driver.h"
#include "pmu/pmu-regs.h"

const char *bt_pmu_error(const struct bt_pmu_session *s)
{
	return s->msg;
}

bool bt_pmu_session_smm_frozen(const struct bt_pmu_session *s)
{
	return s->smm_frozen;
}

const char *bt_pmu_session_warnings(const struct bt_pmu_session *s)
{
	return s->warning;
}

bt_status bt_pmu_open(struct bt_pmu_session *s, struct bt_arch *arch,
		      const struct bt_pmu_caps *caps, const struct bt_pmu_session_opts *opts)
{
	memset(s, 0, sizeof(*s));
	s->arch = arch;
	s->caps = *caps;
	if (opts)
		s->opts = *opts;
	s->group = -1;
	if (caps->kind == BT_PMU_NONE) {
		snprintf(s->msg, sizeof(s->msg), "no usable PMU: %s", caps->absent_reason);
		return BT_ERR_UNSUPPORTED;
	}
	if (caps->num_gp > BT_PMU_MAX_GP || caps->num_fixed > BT_PMU_MAX_FIXED) {
		snprintf(s->msg, sizeof(s->msg), "PMU has more counters than baretop handles");
		return BT_ERR_UNSUPPORTED;
	}
	s->driver = s->opts.driver ? s->opts.driver : bt_pmu_driver_for(caps);
	if (!s->driver) {
		snprintf(s->msg, sizeof(s->msg), "no driver for this PMU (kind %u)", (unsigned)caps->kind);
		return BT_ERR_UNSUPPORTED;
	}
	s->open = true;
	/* A vendor without MSR_SMI_COUNT reads none (pmu-regs.c bt_pmu_smi_*). */
	if (!s->driver->smi_count)
		s->opts.read_smi_count = false;
	/* MSR_SMI_COUNT is model-specific (Nehalem and later) and VMMs often
	 * do not emulate it: read it once, through the fault guard, before
	 * relying on it in every window. On a fault, count no SMIs rather
	 * than abort each window. */
	if (s->opts.read_smi_count && s->driver->smi_count) {
		uint64_t v = 0;
		if (bt_rdmsr(arch, MSR_SMI_COUNT, &v) != BT_OK) {
			s->opts.read_smi_count = false;
			s->smi_count_unreadable = true;
			bt_pmu_warn(s, "MSR_SMI_COUNT (0x34) is not readable here: SMIs are not counted");
		}
		s->smi_stopped = v; /* before the driver stops the counters: an SMI
				     * in between is taken as one after the stop */
	}
	return s->driver->open(s);
}

static bt_status usable(struct bt_pmu_session *s)
{
	if (!s->open)
		return BT_ERR_INVALID;
	if (s->failed)
		return BT_ERR_ABORTED;
	return BT_OK;
}

bt_status bt_pmu_program(struct bt_pmu_session *s, const struct bt_plan *plan, int group,
			 const struct bt_event *const *events)
{
	bt_status st = usable(s);
	if (st != BT_OK)
		return st;
	if (!plan || !events || group < 0 || group >= plan->n_groups)
		return bt_pmu_fail(s, BT_ERR_INVALID, "no group %d in the plan", group);
	s->plan = plan;
	s->events = events;
	s->group = group;
	s->programmed = false;
	s->ran = false;
	s->gp_used = 0;
	/* Before any MSR is touched: every counter the plan names must exist
	 * here. A missing counter cannot be relied on to fault: AMD's legacy
	 * "PerfEvtSel4" would be 0xC0010004, which is PerfCtr0. */
	const struct bt_plan_group *g = &plan->groups[group];
	if (g->n_gp > BT_PMU_MAX_GP)
		return bt_pmu_fail(s, BT_ERR_INVALID, "group %d has %d general-counter events", group,
				   g->n_gp);
	for (int i = 0; i < g->n_gp; i++) {
		unsigned c = g->gp[i].counter;
		const char *name = g->gp[i].event < plan->n_events && events[g->gp[i].event] &&
				   events[g->gp[i].event]->name ? events[g->gp[i].event]->name : "an event";
		if (c >= BT_PMU_MAX_GP || !(s->caps.gp_mask & (1u << c)))
			return bt_pmu_fail(s, BT_ERR_INVALID,
					   "group %d puts %s on general counter %u, which this PMU does "
					   "not have (counters 0x%X); nothing programmed", group, name, c,
					   s->caps.gp_mask);
		if (s->gp_used & (1u << c))
			return bt_pmu_fail(s, BT_ERR_INVALID, "group %d uses general counter %u twice; "
					   "nothing programmed", group, c);
		s->gp_used |= 1u << c;
	}
	/* The run's own counts on AMD (plan.h inst_gp / smi_gp): programmed
	 * by the driver in every group, on counters no event may use. */
	uint32_t own = (plan->has_inst_gp ? 1u << plan->inst_gp : 0) |
		       (plan->has_smi_gp ? 1u << plan->smi_gp : 0) |
		       (plan->has_sibling_gp ? 1u << plan->ota_gp : 0) |
		       (plan->has_xclk_gp ? 1u << plan->xclk_gp : 0);
	if (own & ~s->caps.gp_mask)
		return bt_pmu_fail(s, BT_ERR_INVALID, "the plan reserves general counters 0x%X, "
				   "which this PMU does not have; nothing programmed", own);
	if (own & s->gp_used)
		return bt_pmu_fail(s, BT_ERR_INVALID, "group %d puts an event on a general counter "
				   "the plan reserves (0x%X); nothing programmed", group, own);
	s->gp_used |= own;
	if (s->driver->fixed_counters && (plan->fixed_mask & ~s->caps.fixed_mask))
		return bt_pmu_fail(s, BT_ERR_INVALID, "the plan uses fixed counters 0x%X, this PMU has "
				   "0x%X; nothing programmed", plan->fixed_mask, s->caps.fixed_mask);
	s->fixed_used = s->driver->fixed_counters ? plan->fixed_mask : 0;
	s->pm = plan->perf_metrics && s->caps.perf_metrics && (s->fixed_used & (1u << 3));
	/* The run's SMI bracket opens before the first programming write (see
	 * pmu-session.h): an SMI from here to the last counter read is seen. */
	st = bt_pmu_smi_begin(s, true);
	if (st != BT_OK)
		return st;
	st = s->driver->program(s);
	if (st == BT_OK)
		s->programmed = true;
	s->ran = false;
	s->win_tsc = s->win_aperf = s->win_mperf = 0;
	return st;
}

/* The per-run TSC is the run's duration: it must bracket the window as
 * tightly as possible, so bt_pmu_window reads it last before the window's
 * start write and first after its stop write. That holds for AMD without
 * PerfMonV2 too, whose other per-counter enable and disable writes lie
 * outside the TSC's interval (amd-pmu.c). APERF/MPERF and MSR_SMI_COUNT are
 * read here, outside the TSC's interval: theirs contains it, so an SMI in
 * the TSC's interval is always counted. */
static bt_status sample_side(struct bt_pmu_session *s, bool after)
{
	bt_status st;
	if (s->opts.read_aperf_mperf) {
		st = bt_pmu_rd(s, MSR_IA32_MPERF, after ? &s->mperf1 : &s->mperf0, "reading IA32_MPERF");
		if (st == BT_OK)
			st = bt_pmu_rd(s, MSR_IA32_APERF, after ? &s->aperf1 : &s->aperf0,
				       "reading IA32_APERF");
		if (st != BT_OK)
			return st;
		s->have_aperf = true;
	}
	return bt_pmu_smi_sample(s, after, true);
}

void bt_pmu_smi_of(const struct bt_pmu_counts *c, struct bt_pmu_smi *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->has_count = c->has_smi_count;
	ret->in_window = c->has_smi_count ? c->smi_delta : 0;
	ret->outside = c->has_smi_count ? c->smi_outside : 0;
	ret->restarted = c->smm_restarted;
	ret->frozen = c->smm_frozen;
}

enum bt_smi_verdict bt_pmu_smi_verdict(const struct bt_pmu_smi *smi)
{
	if ((smi->has_count && smi->outside) || smi->restarted)
		return BT_SMI_OUTSIDE;
	if (!smi->has_count || !smi->in_window)
		return BT_SMI_NONE;
	return smi->frozen ? BT_SMI_FROZEN : BT_SMI_COUNTED;
}

const char *bt_pmu_smi_why(enum bt_smi_verdict v)
{
	switch (v) {
	case BT_SMI_OUTSIDE: return "SMI outside the window, between programming and reading";
	case BT_SMI_COUNTED: return "SMI in the window, counters not frozen in SMM";
	case BT_SMI_FROZEN: return "SMI in the window (counters frozen in SMM, the TSC ran on)";
	case BT_SMI_NONE: break;
	}
	return "";
}

bt_status bt_pmu_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg)
{
	bt_status st = usable(s);
	if (st != BT_OK)
		return st;
	if (!s->programmed)
		return bt_pmu_fail(s, BT_ERR_INVALID, "run before program");
	st = sample_side(s, false);
	if (st == BT_OK)
		st = s->driver->run(s, fn, arg);
	if (st == BT_OK)
		st = sample_side(s, true);
	if (st == BT_OK) {
		s->ran = true;
		s->win_tsc += s->tsc1 - s->tsc0;
		s->win_aperf += s->aperf1 - s->aperf0;
		s->win_mperf += s->mperf1 - s->mperf0;
	}
	return st;
}

bt_status bt_pmu_read(struct bt_pmu_session *s, struct bt_pmu_counts *ret)
{
	bt_status st = usable(s);
	if (st != BT_OK)
		return st;
	if (!s->ran)
		return bt_pmu_fail(s, BT_ERR_INVALID, "read before run");
	/* Filled in place: the caller owns the counts (3 KiB), so the reader
	 * keeps no state of its own and may run on several CPUs at once. */
	struct bt_pmu_counts *c = ret;
	memset(c, 0, sizeof(*c));
	c->group = s->group;
	c->gp_used = s->gp_used;
	c->fixed_used = s->fixed_used;
	st = s->driver->read(s, c);
	if (st != BT_OK)
		return st;
	/* ... and closes after the last counter read. */
	struct bt_pmu_smi smi;
	st = bt_pmu_smi_end(s, true, &smi);
	if (st != BT_OK)
		return st;
	c->tsc_delta = s->win_tsc;
	if (s->have_aperf) {
		c->has_aperf_mperf = true;
		c->aperf_delta = s->win_aperf;
		c->mperf_delta = s->win_mperf;
	}
	if (smi.has_count) {
		c->has_smi_count = true;
		c->smi_delta = smi.in_window;
		c->smi_outside = smi.outside;
	}
	c->smm_frozen = s->smm_frozen;
	if (c->fixed_used & 1u) {
		c->has_inst = true;
		c->inst_delta = c->fixed_delta[0];
	} else if (s->plan->has_inst_gp) {
		c->has_inst = true;
		c->inst_delta = c->gp_delta[s->plan->inst_gp];
	}
	if (s->plan->has_sibling_gp) {
		c->has_sibling = true;
		c->one_thread_active = c->gp_delta[s->plan->ota_gp];
	}
	if (s->plan->has_xclk_gp) {
		c->has_xclk = true;
		c->ref_xclk = c->gp_delta[s->plan->xclk_gp];
	}
	if (!c->has_smi_count && s->plan->has_smi_gp) {
		c->has_smi_count = true;
		c->smi_delta = c->gp_delta[s->plan->smi_gp];
	}
	if (s->opts.tsc_hz)
		c->duration_ns = c->tsc_delta / s->opts.tsc_hz * 1000000000ull +
				(c->tsc_delta % s->opts.tsc_hz) * 1000000000ull / s->opts.tsc_hz;

	/* Per event. */
	const struct bt_plan *p = s->plan;
	c->n_events = p->n_events;
	for (int i = 0; i < p->n_events; i++) {
		const struct bt_plan_event *pe = &p->ev[i];
		const struct bt_event *e = s->events[i];
		switch (pe->place) {
		case BT_PLACE_GP:
			if (pe->group == s->group) {
				c->measured[i] = true;
				c->count[i] = c->gp_delta[pe->counter];
			}
			break;
		case BT_PLACE_FIXED:
			if (c->fixed_used & (1u << pe->counter)) {
				c->measured[i] = true;
				c->count[i] = c->fixed_delta[pe->counter];
			}
			break;
		case BT_PLACE_PERF_METRICS:
			if (c->has_perf_metrics) {
				c->measured[i] = true;
				c->count[i] = c->pm_slots[pe->counter];
			}
			break;
		case BT_PLACE_FREE:
			if (e->source == BT_SRC_TSC) {
				c->measured[i] = true;
				c->count[i] = c->tsc_delta;
			} else if (s->opts.tsc_hz) {
				c->measured[i] = true;
				c->count[i] = c->duration_ns;
			}
			break;
		}
	}
	return BT_OK;
}

bt_status bt_pmu_close(struct bt_pmu_session *s)
{
	if (!s->open)
		return BT_OK;
	s->open = false;
	if (s->opts.mutation && s->opts.mutation->no_restore)
		return BT_OK;
	return s->driver->restore(s);
}

bt_status bt_pmu_measure_group(struct bt_pmu_session *s, const struct bt_plan *plan, int group,
			       const struct bt_event *const *events, bt_window_fn *fn, void *arg,
			       struct bt_pmu_counts *ret)
{
	bt_status st = bt_pmu_program(s, plan, group, events);
	if (st == BT_OK)
		st = bt_pmu_run(s, fn, arg);
	if (st == BT_OK)
		st = bt_pmu_read(s, ret);
	return st;
}

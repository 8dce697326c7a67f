/* SPDX-License-Identifier: MIT */
/*
 * The vendor-neutral session: save-before-touch bookkeeping, error
 * messages, per-run TSC/APERF/MPERF/SMI, and turning raw counter values
 * into per-event counts. Vendor programming is in intel-pmu.c / amd-pmu.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/pmu-internal.h"

bool bt_pmu_is_amd(const struct bt_pmu_session *s)
{
	return s->caps.kind == BT_PMU_AMD_LEGACY || s->caps.kind == BT_PMU_AMD_CORE_EXT ||
	       s->caps.kind == BT_PMU_AMD_V2;
}

bt_status bt_pmu_fail(struct bt_pmu_session *s, bt_status st, const char *fmt, ...)
{
	if (!s->failed) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
		va_end(ap);
	}
	s->failed = true;
	return st;
}

const char *bt_pmu_error(const struct bt_pmu_session *s)
{
	return s->msg;
}

bool bt_pmu_saved_value(const struct bt_pmu_session *s, uint32_t msr, uint64_t *ret)
{
	for (int i = 0; i < s->n_saved; i++)
		if (s->saved[i].msr == msr) {
			if (ret)
				*ret = s->saved[i].value;
			return true;
		}
	return false;
}

void bt_pmu_warn(struct bt_pmu_session *s, const char *fmt, ...)
{
	size_t len = strlen(s->warning);
	if (len + 3 >= sizeof(s->warning))
		return;
	if (len) {
		memcpy(s->warning + len, "; ", 3);
		len += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->warning + len, sizeof(s->warning) - len, fmt, ap);
	va_end(ap);
}

static void add_saved(struct bt_pmu_session *s, uint32_t msr, uint64_t value)
{
	s->saved[s->n_saved].msr = msr;
	s->saved[s->n_saved].value = value;
	s->n_saved++;
}

bt_status bt_pmu_save(struct bt_pmu_session *s, uint32_t msr)
{
	if (bt_pmu_saved_value(s, msr, NULL))
		return BT_OK;
	if (s->n_saved == BT_PMU_MAX_SAVED)
		return bt_pmu_fail(s, BT_ERR_INTERNAL, "too many MSRs to save");
	uint64_t v;
	char name[40];
	bt_status st = bt_rdmsr(s->arch, msr, &v);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "RDMSR %s (0x%X) raised %s while saving it; nothing "
				   "written to it", bt_msr_name(msr, name, sizeof(name)), msr,
				   bt_fault_name(s->arch->fault_vector));
	add_saved(s, msr, v);
	return BT_OK;
}

bt_status bt_pmu_try_set_bits(struct bt_pmu_session *s, uint32_t msr, uint64_t bits,
			      const char **ret_access)
{
	uint64_t v;
	/* Only ever called for an MSR not saved yet (at open). */
	if (bt_pmu_saved_value(s, msr, NULL) || s->n_saved == BT_PMU_MAX_SAVED) {
		*ret_access = "saving";
		return BT_ERR_INTERNAL;
	}
	bt_status st = bt_rdmsr(s->arch, msr, &v);
	if (st != BT_OK) {
		*ret_access = "RDMSR";
		return st;
	}
	if ((v & bits) == bits)
		return BT_OK; /* already set (by firmware): nothing to write or restore */
	/* Read-modify-write: the other bits belong to whoever set them. */
	add_saved(s, msr, v);
	st = bt_wrmsr(s->arch, msr, v | bits);
	if (st != BT_OK) {
		s->n_saved--; /* the write did not happen: nothing to put back */
		*ret_access = "WRMSR";
		return st;
	}
	return BT_OK;
}

bt_status bt_pmu_wr_saving(struct bt_pmu_session *s, uint32_t save_msr, uint32_t msr,
			   uint64_t value, const char *why)
{
	bt_status st = bt_pmu_save(s, save_msr);
	if (st != BT_OK)
		return st;
	st = bt_wrmsr(s->arch, msr, value);
	if (st != BT_OK) {
		char name[40];
		return bt_pmu_fail(s, st, "WRMSR %s (0x%X) = 0x%llx raised %s while %s",
				   bt_msr_name(msr, name, sizeof(name)), msr, (unsigned long long)value,
				   bt_fault_name(s->arch->fault_vector), why);
	}
	return BT_OK;
}

bt_status bt_pmu_wr(struct bt_pmu_session *s, uint32_t msr, uint64_t value, const char *why)
{
	return bt_pmu_wr_saving(s, msr, msr, value, why);
}

bt_status bt_pmu_rd(struct bt_pmu_session *s, uint32_t msr, uint64_t *ret, const char *why)
{
	bt_status st = bt_rdmsr(s->arch, msr, ret);
	if (st != BT_OK) {
		char name[40];
		return bt_pmu_fail(s, st, "RDMSR %s (0x%X) raised %s while %s",
				   bt_msr_name(msr, name, sizeof(name)), msr,
				   bt_fault_name(s->arch->fault_vector), why);
	}
	return BT_OK;
}

bt_status bt_pmu_rdpmc(struct bt_pmu_session *s, uint32_t ecx, uint64_t *ret, const char *why)
{
	bt_status st = bt_rdpmc(s->arch, ecx, ret);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "RDPMC ECX=0x%X raised %s while %s", ecx,
				   bt_fault_name(s->arch->fault_vector), why);
	return BT_OK;
}

void bt_pmu_restore_write(struct bt_pmu_session *s, uint32_t msr, uint64_t value,
			  bt_status *first)
{
	/* Retry once: a fault here is not expected (the value was read from
	 * the same register, or is within the bits the manuals define), and a
	 * transient one must not leave it changed. */
	bt_status st = bt_wrmsr(s->arch, msr, value);
	if (st != BT_OK)
		st = bt_wrmsr(s->arch, msr, value);
	if (st == BT_OK)
		return;
	if (*first == BT_OK)
		*first = st;
	if (!s->restore_warned) {
		char name[40];
		s->restore_warned = true;
		bt_pmu_warn(s, "could not write %s (0x%X) = 0x%llx: %s",
			    bt_msr_name(msr, name, sizeof(name)), msr, (unsigned long long)value,
			    bt_fault_name(s->arch->fault_vector));
	}
}

void bt_pmu_restore_one(struct bt_pmu_session *s, uint32_t msr, bt_status *first)
{
	uint64_t v;
	if (bt_pmu_saved_value(s, msr, &v))
		bt_pmu_restore_write(s, msr, v, first);
}

uint64_t bt_perf_metrics_slots(uint64_t slots, uint8_t field)
{
	/* slots < 2^56 keeps slots * 255 within 64 bits; beyond that split. */
	if (slots < (1ull << 56))
		return slots * field / 255;
	return (slots / 255) * field + (slots % 255) * field / 255;
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
	s->open = true;
	/* MSR_SMI_COUNT is model-specific (Nehalem and later) and VMMs often
	 * do not emulate it: read it once, through the fault guard, before
	 * relying on it in every window. On a fault, count no SMIs rather
	 * than abort each window. */
	if (s->opts.read_smi_count && !bt_pmu_is_amd(s)) {
		uint64_t v;
		if (bt_rdmsr(arch, MSR_SMI_COUNT, &v) != BT_OK) {
			s->opts.read_smi_count = false;
			s->smi_count_unreadable = true;
			bt_pmu_warn(s, "MSR_SMI_COUNT (0x34) is not readable here: SMIs are not counted");
		}
	}
	return bt_pmu_is_amd(s) ? bt_amd_open(s) : bt_intel_open(s);
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
	if (!bt_pmu_is_amd(s) && (plan->fixed_mask & ~s->caps.fixed_mask))
		return bt_pmu_fail(s, BT_ERR_INVALID, "the plan uses fixed counters 0x%X, this PMU has "
				   "0x%X; nothing programmed", plan->fixed_mask, s->caps.fixed_mask);
	s->fixed_used = bt_pmu_is_amd(s) ? 0 : plan->fixed_mask;
	s->pm = plan->perf_metrics && s->caps.perf_metrics && (s->fixed_used & (1u << 3));
	st = bt_pmu_is_amd(s) ? bt_amd_program(s) : bt_intel_program(s);
	if (st == BT_OK)
		s->programmed = true;
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
	if (s->opts.read_smi_count && !bt_pmu_is_amd(s)) {
		st = bt_pmu_rd(s, MSR_SMI_COUNT, after ? &s->smi1 : &s->smi0, "reading MSR_SMI_COUNT");
		if (st != BT_OK)
			return st;
		s->have_smi = true;
	}
	return BT_OK;
}

bt_status bt_pmu_window(struct bt_pmu_session *s, uint32_t msr, uint64_t start, uint64_t stop,
			bt_window_fn *fn, void *arg)
{
	s->tsc0 = bt_rdtsc(s->arch);
	bt_status st = s->arch->ops->run_window(s->arch, msr, start, stop, fn, arg);
	s->tsc1 = bt_rdtsc(s->arch);
	return st;
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
		st = bt_pmu_is_amd(s) ? bt_amd_run(s, fn, arg) : bt_intel_run(s, fn, arg);
	if (st == BT_OK)
		st = sample_side(s, true);
	if (st == BT_OK)
		s->ran = true;
	return st;
}

bt_status bt_pmu_read(struct bt_pmu_session *s, struct bt_pmu_counts *ret)
{
	bt_status st = usable(s);
	if (st != BT_OK)
		return st;
	if (!s->ran)
		return bt_pmu_fail(s, BT_ERR_INVALID, "read before run");
	static struct bt_pmu_counts c;
	memset(&c, 0, sizeof(c));
	c.group = s->group;
	c.gp_used = s->gp_used;
	c.fixed_used = s->fixed_used;
	st = bt_pmu_is_amd(s) ? bt_amd_read(s, &c) : bt_intel_read(s, &c);
	if (st != BT_OK)
		return st;
	c.tsc_delta = s->tsc1 - s->tsc0;
	if (s->have_aperf) {
		c.has_aperf_mperf = true;
		c.aperf_delta = s->aperf1 - s->aperf0;
		c.mperf_delta = s->mperf1 - s->mperf0;
	}
	if (s->have_smi) {
		c.has_smi_count = true;
		c.smi_delta = (s->smi1 - s->smi0) & 0xFFFFFFFFull; /* MSR_SMI_COUNT[31:0] */
	}
	c.smm_frozen = s->smm_frozen;
	if (s->opts.tsc_hz)
		c.duration_ns = c.tsc_delta / s->opts.tsc_hz * 1000000000ull +
				(c.tsc_delta % s->opts.tsc_hz) * 1000000000ull / s->opts.tsc_hz;

	/* Per event. */
	const struct bt_plan *p = s->plan;
	c.n_events = p->n_events;
	for (int i = 0; i < p->n_events; i++) {
		const struct bt_plan_event *pe = &p->ev[i];
		const struct bt_event *e = s->events[i];
		switch (pe->place) {
		case BT_PLACE_GP:
			if (pe->group == s->group) {
				c.measured[i] = true;
				c.count[i] = c.gp_delta[pe->counter];
			}
			break;
		case BT_PLACE_FIXED:
			if (c.fixed_used & (1u << pe->counter)) {
				c.measured[i] = true;
				c.count[i] = c.fixed_delta[pe->counter];
			}
			break;
		case BT_PLACE_PERF_METRICS:
			if (c.has_perf_metrics) {
				c.measured[i] = true;
				c.count[i] = c.pm_slots[pe->counter];
			}
			break;
		case BT_PLACE_FREE:
			if (e->source == BT_SRC_TSC) {
				c.measured[i] = true;
				c.count[i] = c.tsc_delta;
			} else if (s->opts.tsc_hz) {
				c.measured[i] = true;
				c.count[i] = c.duration_ns;
			}
			break;
		}
	}
	*ret = c;
	return BT_OK;
}

bt_status bt_pmu_close(struct bt_pmu_session *s)
{
	if (!s->open)
		return BT_OK;
	s->open = false;
	if (s->opts.mutation && s->opts.mutation->no_restore)
		return BT_OK;
	return bt_pmu_is_amd(s) ? bt_amd_restore(s) : bt_intel_restore(s);
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

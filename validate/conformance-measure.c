/* SPDX-License-Identifier: MIT */
/*
 * Programming counters directly for the conformance checks and counting
 * the loop-dec-jnz kernel (or the empty one, for calibration) with them.
 * The sequence follows the SDM's (vol. 3B 20.2.2): everything stopped
 * through the global control, selectors and fixed control written, start
 * values written and read back, overflow status cleared, one write starts
 * and one write stops, then the reads. AMD without PerfMonV2 has no
 * global control (APM vol. 2 §13.2.1): each counter is started and
 * stopped by its PerfEvtSel.En, the last one by the window's own write,
 * so counters differ by the writes between: calibration removes that.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/measure.h"
#include "validate/conformance-internal.h"

uint64_t conf_sel(const struct conf *c, unsigned code, unsigned umask)
{
	(void)c;
	/* EventSelect [7:0], UMASK [15:8], USR 16, OS 17 (SDM Figure 20-1, APM
	 * Figure 13-7 alike); EN is added by conf_run. */
	return (code & 0xFF) | ((uint64_t)umask << EVTSEL_UMASK_SHIFT) | EVTSEL_USR | EVTSEL_OS;
}

uint64_t conf_gp_mask(const struct conf *c)
{
	return bt_width_mask(c->caps->gp_width);
}

uint64_t conf_fixed_mask(const struct conf *c)
{
	return bt_width_mask(c->caps->fixed_width ? c->caps->fixed_width : 48);
}

static uint64_t counter_bits(const struct conf *c)
{
	if (!c->intel)
		return c->caps->gp_mask;
	uint64_t v = c->caps->gp_mask | (uint64_t)c->caps->fixed_mask << GLOBAL_FIXED_SHIFT;
	if (c->caps->perf_metrics)
		v |= GLOBAL_PERF_METRICS;
	return v;
}

uint64_t conf_status_usable(const struct conf *c)
{
	uint64_t at_open = bt_pmu_raw_status_at_open(&c->s);
	if (c->intel)
		return c->caps->version >= 4 ? counter_bits(c) : counter_bits(c) & ~at_open;
	return c->amd_v2 ? counter_bits(c) : 0;
}

bt_status conf_clear_status(struct conf *c, uint64_t bits, uint64_t *ret_after)
{
	uint32_t clr = c->intel ? MSR_IA32_PERF_GLOBAL_OVF_CTRL : MSR_AMD_PERF_GLOBAL_STATUS_CLR;
	uint32_t st = c->intel ? MSR_IA32_PERF_GLOBAL_STATUS : MSR_AMD_PERF_GLOBAL_STATUS;
	bt_status r = bits ? bt_pmu_raw_write(&c->s, 0, clr, bits, &c->err) : BT_OK;
	if (r == BT_OK && ret_after)
		r = bt_pmu_raw_read(&c->s, st, ret_after, &c->err);
	return r;
}

#define TRY(x) do { bt_status st_ = (x); if (st_ != BT_OK) return st_; } while (0)

static bt_status wr(struct conf *c, uint32_t save, uint32_t msr, uint64_t v)
{
	return bt_pmu_raw_write(&c->s, save, msr, v, &c->err);
}

static bt_status rd(struct conf *c, uint32_t msr, uint64_t *v)
{
	return bt_pmu_raw_read(&c->s, msr, v, &c->err);
}

static void body(struct conf *c, bool empty, bt_window_fn **fn, void **arg)
{
	*fn = empty ? c->empty->run : c->loop->run;
	*arg = empty ? (void *)&c->empty_st : (void *)&c->loop_st;
}

/* AMD without a global control: En per counter, the last one by the
 * window's write. */
static bt_status amd_window(struct conf *c, const struct conf_prog *p, bt_window_fn *fn,
			    void *arg, uint64_t *tsc)
{
	const struct bt_pmu_caps *k = c->caps;
	int used[BT_PMU_MAX_GP], n = 0;
	for (unsigned i = 0; i < k->num_gp; i++)
		if (p->gp & (1u << i))
			used[n++] = (int)i;
	if (!n)
		return bt_pmu_raw_window(&c->s, bt_pmu_gp_sel_msr(k, 0), 0, 0, fn, arg, tsc,
					 &c->err);
	for (int j = 0; j < n - 1; j++) {
		uint32_t m = bt_pmu_gp_sel_msr(k, (unsigned)used[j]);
		TRY(wr(c, m, m, p->sel[used[j]] | EVTSEL_EN));
	}
	unsigned last = (unsigned)used[n - 1];
	TRY(bt_pmu_raw_window(&c->s, bt_pmu_gp_sel_msr(k, last), p->sel[last] | EVTSEL_EN,
			      p->sel[last], fn, arg, tsc, &c->err));
	for (int j = 0; j < n - 1; j++) {
		uint32_t m = bt_pmu_gp_sel_msr(k, (unsigned)used[j]);
		TRY(wr(c, m, m, p->sel[used[j]]));
	}
	return BT_OK;
}

bt_status conf_stop_selectors(struct conf *c)
{
	const struct bt_pmu_caps *k = c->caps;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (k->gp_mask & (1u << i)) {
			uint32_t m = bt_pmu_gp_sel_msr(k, i);
			TRY(wr(c, m, m, 0));
		}
	if (c->intel && k->fixed_mask)
		TRY(wr(c, MSR_IA32_FIXED_CTR_CTRL, MSR_IA32_FIXED_CTR_CTRL, 0));
	return BT_OK;
}

static bt_status run_once(struct conf *c, const struct conf_prog *p, bool empty,
			 struct conf_run *r)
{
	const struct bt_pmu_caps *k = c->caps;
	uint32_t gctl = bt_pmu_global_ctrl_msr(k);
	uint64_t gmask = conf_gp_mask(c), fmask = conf_fixed_mask(c);
	memset(r, 0, sizeof(*r));
	/* The run's SMI bracket opens before its first write ... */
	TRY(bt_pmu_raw_smi_begin(&c->s, &c->err));
	if (gctl)
		TRY(wr(c, gctl, gctl, 0)); /* everything stopped while programming */
	/* Selectors disabled while the start values are written and read
	 * back, so even a counter whose global enable failed holds still. */
	TRY(conf_stop_selectors(c));
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(p->gp & (1u << i)))
			continue;
		uint32_t rm = bt_pmu_gp_ctr_msr(k, i), wm = bt_pmu_gp_ctr_write_msr(k, i);
		uint64_t v = p->gp_start[i] & gmask;
		/* A value a 32-bit write can give (0, or near the top: SDM 20.2.6
		 * sign-extends bit 31) goes through IA32_PMCx, so the width check
		 * does not depend on the full-width alias (conf:full-width-write
		 * checks that one). */
		if (c->intel && i < 8 && v == ((uint64_t)(int64_t)(int32_t)(uint32_t)v & gmask)) {
			wm = MSR_IA32_PMC0 + i;
			v &= 0xFFFFFFFFull;
		} else if (c->intel && !k->full_width_write) {
			v &= 0xFFFFFFFFull;
		}
		TRY(wr(c, rm, wm, v));
		TRY(rd(c, rm, &r->gp_held[i]));
	}
	for (unsigned i = 0; c->intel && i < BT_PMU_MAX_FIXED; i++) {
		if (!(p->fixed & (1u << i)))
			continue;
		uint32_t m = bt_pmu_fixed_ctr_msr(k, i);
		TRY(wr(c, m, m, p->fixed_start[i] & fmask));
		TRY(rd(c, m, &r->fixed_held[i]));
	}
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(p->gp & (1u << i)))
			continue;
		uint32_t m = bt_pmu_gp_sel_msr(k, i);
		TRY(wr(c, m, m, p->sel[i] | (gctl ? EVTSEL_EN : 0)));
	}
	if (c->intel && k->fixed_mask) {
		uint64_t v = 0;
		for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
			if (p->fixed & (1u << i))
				v |= (FIXED_CTRL_OS | FIXED_CTRL_USR) << FIXED_CTRL_SHIFT(i);
		TRY(wr(c, MSR_IA32_FIXED_CTR_CTRL, MSR_IA32_FIXED_CTR_CTRL, v));
	}
	/* SDM 20.3.9.3: FIXED_CTR3 and PERF_METRICS are reset together, SLOTS
	 * first. */
	if (p->pm)
		TRY(wr(c, MSR_PERF_METRICS, MSR_PERF_METRICS, 0));
	uint64_t clear = conf_status_usable(c);
	if (c->intel && k->version >= 4)
		clear |= bt_pmu_raw_status_at_open(&c->s) &
			 (GLOBAL_STATUS_CTR_FRZ | GLOBAL_STATUS_LBR_FRZ);
	TRY(conf_clear_status(c, clear, NULL));

	bt_window_fn *fn;
	void *arg;
	body(c, empty, &fn, &arg);
	if (gctl) {
		uint64_t start = p->gp;
		if (c->intel)
			start |= (uint64_t)p->fixed << GLOBAL_FIXED_SHIFT |
				 (p->pm ? GLOBAL_PERF_METRICS : 0);
		if (p->global_override)
			start = p->global_start;
		/* Interrupts masked around the window: a handler's instructions
		 * would count in it. */
		uint64_t irq = bt_irq_save(c->arch);
		bt_status st = bt_pmu_raw_window(&c->s, gctl, start, 0, fn, arg, &r->tsc, &c->err);
		bt_irq_restore(c->arch, irq);
		TRY(st);
		TRY(rd(c, c->intel ? MSR_IA32_PERF_GLOBAL_STATUS : MSR_AMD_PERF_GLOBAL_STATUS,
		       &r->status));
	} else {
		uint64_t irq = bt_irq_save(c->arch);
		bt_status st = amd_window(c, p, fn, arg, &r->tsc);
		bt_irq_restore(c->arch, irq);
		TRY(st);
	}
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(p->gp & (1u << i)))
			continue;
		if (c->read_rdpmc)
			TRY(bt_pmu_raw_rdpmc(&c->s, i, &r->gp_end[i], &c->err));
		else
			TRY(rd(c, bt_pmu_gp_ctr_msr(k, i), &r->gp_end[i]));
		r->gp_delta[i] = (r->gp_end[i] - r->gp_held[i]) & gmask;
	}
	for (unsigned i = 0; c->intel && i < BT_PMU_MAX_FIXED; i++) {
		if (!(p->fixed & (1u << i)))
			continue;
		if (c->read_rdpmc)
			TRY(bt_pmu_raw_rdpmc(&c->s, (uint32_t)RDPMC_FIXED | i, &r->fixed_end[i],
					     &c->err));
		else
			TRY(rd(c, bt_pmu_fixed_ctr_msr(k, i), &r->fixed_end[i]));
		r->fixed_delta[i] = (r->fixed_end[i] - r->fixed_held[i]) & fmask;
	}
	if (p->pm)
		TRY(rd(c, MSR_PERF_METRICS, &r->perf_metrics));
	/* ... and closes after its last read. */
	return bt_pmu_raw_smi_end(&c->s, &r->smi, &c->err);
}

bt_status conf_run(struct conf *c, const struct conf_prog *p, bool empty, struct conf_run *r)
{
	TRY(run_once(c, p, empty, r));
	for (unsigned t = 0; t < CONF_SMI_RETRIES; t++) {
		enum bt_smi_verdict v = bt_pmu_smi_verdict(&r->smi);
		if (v == BT_SMI_NONE)
			return BT_OK;
		if (!c->smi_repeats++)
			snprintf(c->smi_why, sizeof(c->smi_why), "%s", bt_pmu_smi_why(v));
		TRY(run_once(c, p, empty, r));
	}
	if (bt_pmu_smi_verdict(&r->smi) != BT_SMI_NONE)
		c->smi_kept++;
	return BT_OK;
}

struct series {
	uint64_t gp[BT_PMU_MAX_GP][BT_MEASURE_MAX_REPS];
	uint64_t fixed[BT_PMU_MAX_FIXED][BT_MEASURE_MAX_REPS];
	uint64_t tsc[BT_MEASURE_MAX_REPS];
};

static bt_status series(struct conf *c, const struct conf_prog *p, bool empty, unsigned reps,
			struct series *sr)
{
	for (unsigned k = 0; k < reps; k++) {
		struct conf_run r;
		TRY(conf_run(c, p, empty, &r));
		for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
			sr->gp[i][k] = r.gp_delta[i];
		for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
			sr->fixed[i][k] = r.fixed_delta[i];
		sr->tsc[k] = r.tsc;
	}
	return BT_OK;
}

static void stat(const uint64_t *v, unsigned n, uint64_t off, uint64_t *med, uint64_t *mn,
		 uint64_t *mx)
{
	uint64_t lo = v[0], hi = v[0];
	for (unsigned k = 1; k < n; k++) {
		lo = v[k] < lo ? v[k] : lo;
		hi = v[k] > hi ? v[k] : hi;
	}
	uint64_t m = bt_median_u64(v, (int)n);
	*med = m > off ? m - off : 0;
	*mn = lo > off ? lo - off : 0;
	*mx = hi > off ? hi - off : 0;
}

bt_status conf_count(struct conf *c, const struct conf_prog *p, bool calibrate,
		     struct conf_count *ret)
{
	unsigned reps = c->reps;
	struct series *loop = calloc(1, sizeof(*loop)), *cal = calloc(1, sizeof(*cal));
	bt_status st = loop && cal ? BT_OK : BT_ERR_NOMEM;
	if (st == BT_OK)
		st = series(c, p, false, reps, loop);
	if (st == BT_OK && calibrate)
		st = series(c, p, true, reps, cal);
	if (st == BT_OK) {
		memset(ret, 0, sizeof(*ret));
		ret->runs = reps;
		for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
			uint64_t off = calibrate ? bt_median_u64(cal->gp[i], (int)reps) : 0;
			stat(loop->gp[i], reps, off, &ret->gp[i], &ret->gp_min[i], &ret->gp_max[i]);
		}
		for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++) {
			uint64_t off = calibrate ? bt_median_u64(cal->fixed[i], (int)reps) : 0;
			stat(loop->fixed[i], reps, off, &ret->fixed[i], &ret->fixed_min[i],
			     &ret->fixed_max[i]);
		}
		ret->tsc = bt_median_u64(loop->tsc, (int)reps);
	}
	free(loop);
	free(cal);
	return st;
}

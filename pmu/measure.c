/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/measure.h"

/* Fixed counter 1 counts CPU_CLK_UNHALTED.THREAD (Intel SDM vol. 3B,
 * "Fixed-Function Performance Counters"). The run's instructions are
 * counts.inst_delta: fixed counter 0 (INST_RETIRED.ANY) on Intel, 0xC0 on
 * the plan's reserved general counter on AMD (plan.h). */
#define FIXED_CYCLES 1
#define FIXED_REF_TSC 2 /* CPU_CLK_UNHALTED.REF_TSC: the SMT sibling probe (pmu/sibling.h) */

void bt_measure_opts_defaults(struct bt_measure_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->warmups = BT_MEASURE_WARMUPS_DEFAULT;
	o->reps = BT_MEASURE_REPS_DEFAULT;
	o->calib_runs = BT_MEASURE_CALIB_RUNS_DEFAULT;
	o->tolerance = BT_MEASURE_TOLERANCE_DEFAULT;
	o->max_retries = BT_MEASURE_MAX_RETRIES_DEFAULT;
	o->mask_interrupts = true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t bt_median_u64(const uint64_t *v, int n)
{
	if (n <= 0)
		return 0;
	uint64_t *tmp = malloc((size_t)n * sizeof(*tmp));
	if (!tmp)
		return v[0];
	memcpy(tmp, v, (size_t)n * sizeof(*tmp));
	qsort(tmp, (size_t)n, sizeof(*tmp), cmp_u64);
	uint64_t m = tmp[(n - 1) / 2];
	free(tmp);
	return m;
}

static void empty_body(void *arg)
{
	(void)arg;
}

/* All a run of one group measured, before correction. */
struct raw_run {
	struct bt_pmu_counts c;
};

struct engine {
	struct bt_arch *arch;
	struct bt_pmu_session s;
	const struct bt_plan *plan;
	const struct bt_event *const *events;
	const struct bt_measure_workload *wl;
	const struct bt_measure_opts *opts;
	struct bt_measurement *m;
	/* per group g, per event i: calibration overhead */
	uint64_t *overhead;           /* [n_groups * n_events] */
	uint64_t *calib_inst;         /* [n_groups]: instructions of the empty window */
	uint64_t *calib_cycles;       /* [n_groups]: fixed counter 1 of the empty window */
	/* kept runs: n_groups * reps, in (group, rep) order */
	struct raw_run *runs;
	/* The budget's clock: TSC at the start, the longest workload run
	 * (programming, window, reads, the workload's before/after) and the
	 * longest calibration window so far. */
	uint64_t t_begin, run_ticks, calib_ticks;
	struct bt_arch *clock;        /* opts.clock or the PMU's arch */
	unsigned chunks;              /* windows per run (opts.max_window_ticks) */
};

__attribute__((format(printf, 2, 3)))
static bt_status failed(struct engine *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->m->error, sizeof(e->m->error), fmt, ap);
	va_end(ap);
	return BT_ERR_ABORTED;
}

/* Window c of k of a run of n iterations: [floor(n c / k), floor(n (c+1) / k)),
 * computed without overflowing n * c. */
static uint64_t part_edge(uint64_t n, unsigned k, unsigned c)
{
	return (n / k) * c + (n % k) * c / k;
}

/*
 * Program group g, run `fn` in the window (interrupts masked), read. A
 * split run (e->chunks > 1) is e->chunks windows on the same counters:
 * programmed and cleared once, started and stopped by each window's single
 * writes, so they hold still between windows while interrupts are open
 * (a timer tick, the firmware's events), and read once after the last.
 */
static bt_status one_window(struct engine *e, int g, bt_window_fn *fn, void *arg,
			    struct bt_pmu_counts *ret)
{
	bt_status st = bt_pmu_program(&e->s, e->plan, g, e->events);
	unsigned k = e->chunks > 1 ? e->chunks : 1;
	uint64_t n = e->wl->iterations;
	bool body = k > 1 && fn == e->wl->run && arg == e->wl->arg;

	if (st != BT_OK)
		return st;
	for (unsigned c = 0; c < k && st == BT_OK; c++) {
		uint64_t irq = 0;

		if (k > 1) {
			uint64_t b = part_edge(n, k, c), en = part_edge(n, k, c + 1);
			if (body)
				e->wl->set_range(e->wl->ctx, b, en);
			bt_window_part(e->arch, b, en, n);
		}
		if (e->opts->mask_interrupts)
			irq = bt_irq_save(e->arch);
		st = bt_pmu_run(&e->s, fn, arg);
		if (e->opts->mask_interrupts)
			bt_irq_restore(e->arch, irq);
	}
	if (body)
		e->wl->set_range(e->wl->ctx, 0, n);
	if (st != BT_OK)
		return st;
	return bt_pmu_read(&e->s, ret);
}

/*
 * The window cap: after the first whole run of the workload (window_ticks
 * long), whether later runs are split, and into how many windows: enough
 * that each stays under the cap with a quarter to spare (runs vary), at
 * most one per iteration. Returns true when the runs are split from now on.
 */
static bool decide_chunks(struct engine *e, uint64_t window_ticks)
{
	uint64_t cap = e->opts->max_window_ticks, n = e->wl->iterations;

	e->m->whole_window_ticks = window_ticks;
	if (!cap || window_ticks <= cap)
		return false;
	if (n < 2 || !e->wl->set_range) {
		e->m->over_cap_whole = true;
		return false;
	}
	uint64_t want = window_ticks + window_ticks / 4;
	uint64_t k = want / cap + (want % cap != 0);
	if (k > n)
		k = n;
	if (k > BT_MEASURE_MAX_CHUNKS)
		k = BT_MEASURE_MAX_CHUNKS;
	e->chunks = (unsigned)k;
	return k > 1;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static bt_status workload_window(struct engine *e, int g, struct bt_pmu_counts *ret)
{
	struct bt_diag d = { "" };
	bt_status st;
	uint64_t t0 = bt_rdtsc(e->clock);

	if (e->wl->before && (st = e->wl->before(e->wl->ctx, &d)) != BT_OK)
		return failed(e, "the workload's preparation failed: %s", d.text);
	st = one_window(e, g, e->wl->run, e->wl->arg, ret);
	if (st != BT_OK)
		return failed(e, "%s", bt_pmu_error(&e->s));
	if (e->wl->after && (st = e->wl->after(e->wl->ctx, &d)) != BT_OK)
		return failed(e, "the workload's check after the run failed: %s", d.text);
	e->run_ticks = max_u64(e->run_ticks, bt_rdtsc(e->clock) - t0);
	return BT_OK;
}

bool bt_measure_group_fits(uint64_t left_ticks, uint64_t run_ticks, unsigned runs,
			   uint64_t calib_ticks, unsigned calib_runs, uint64_t *ret_est)
{
	uint64_t a = run_ticks * runs, b = calib_ticks * calib_runs;
	bool overflow = (runs && a / runs != run_ticks) ||
			(calib_runs && b / calib_runs != calib_ticks) || a + b < a;

	*ret_est = overflow ? UINT64_MAX : a + b;
	return !overflow && *ret_est <= left_ticks;
}

/* The budget's ticks left now (opts.budget_ticks > 0). */
static uint64_t ticks_left(const struct engine *e)
{
	uint64_t used = bt_rdtsc(e->clock) - e->t_begin;

	return used >= e->opts->budget_ticks ? 0 : e->opts->budget_ticks - used;
}

/* Whether `runs` more workload runs (and `calib` calibration windows) fit
 * in the budget; true without one. On false, *ret_est and *ret_left say
 * why. */
static bool budget_fits(const struct engine *e, unsigned runs, unsigned calib,
			uint64_t *ret_est, uint64_t *ret_left)
{
	if (!e->opts->budget_ticks)
		return true;
	*ret_left = ticks_left(e);
	return bt_measure_group_fits(*ret_left, e->run_ticks, runs, e->calib_ticks, calib,
				     ret_est);
}

static bt_status calibrate(struct engine *e, int g)
{
	int n = e->plan->n_events, k = (int)e->opts->calib_runs;
	uint64_t *samples, inst[BT_MEASURE_MAX_REPS], cyc[BT_MEASURE_MAX_REPS];
	struct bt_pmu_counts c;

	if (k == 0)
		return BT_OK;
	if (k > BT_MEASURE_MAX_REPS)
		k = BT_MEASURE_MAX_REPS;
	samples = calloc((size_t)n * (size_t)k, sizeof(*samples));
	if (!samples)
		return failed(e, "out of memory");
	for (int r = 0; r < k; r++) {
		uint64_t t0 = bt_rdtsc(e->clock);
		if (one_window(e, g, e->opts->calib_body ? e->opts->calib_body : empty_body, NULL,
			       &c) != BT_OK) {
			free(samples);
			return failed(e, "calibration: %s", bt_pmu_error(&e->s));
		}
		e->calib_ticks = max_u64(e->calib_ticks, bt_rdtsc(e->clock) - t0);
		for (int i = 0; i < n; i++)
			samples[(size_t)i * (size_t)k + (size_t)r] = c.measured[i] ? c.count[i] : 0;
		inst[r] = c.has_inst ? c.inst_delta : 0;
		cyc[r] = c.fixed_delta[FIXED_CYCLES];
	}
	for (int i = 0; i < n; i++) {
		/* TSC and wall time are not counts of the body: never corrected. */
		if (e->events[i]->source == BT_SRC_TSC || e->events[i]->source == BT_SRC_DURATION)
			continue;
		e->overhead[(size_t)g * (size_t)n + (size_t)i] =
			bt_median_u64(&samples[(size_t)i * (size_t)k], k);
	}
	e->calib_inst[g] = bt_median_u64(inst, k);
	e->calib_cycles[g] = bt_median_u64(cyc, k);
	free(samples);
	return BT_OK;
}

static uint64_t corrected(const struct engine *e, int g, int i, uint64_t raw, bool *clamped)
{
	uint64_t o = e->overhead[(size_t)g * (size_t)e->plan->n_events + (size_t)i];

	if (raw < o) {
		*clamped = true;
		return 0;
	}
	return raw - o;
}

static uint64_t run_inst(const struct engine *e, const struct raw_run *r)
{
	uint64_t v = r->c.has_inst ? r->c.inst_delta : 0, o = e->calib_inst[r->c.group];

	return v > o ? v - o : 0;
}

/*
 * A run is repeated when its instructions disagree with the median of all
 * runs. An SMI in a window whose counters were frozen in SMM
 * (IA32_DEBUGCTL.FREEZE_WHILE_SMM) is not a reason: the handler added
 * nothing, and platforms with periodic SMIs would otherwise repeat every
 * long run. Where the counters were not frozen, every counter also counted
 * the handler's work (SDM vol. 3B "Filtering of SMM Handler Overhead"), and
 * the instruction count is a poor judge of that: a handler that retires a
 * few thousand instructions (well inside the tolerance) can still stall for
 * tens of microseconds and add its cycles and misses to every event. So such
 * a run is repeated, and flagged if every retry saw an SMI too. AMD has no
 * fixed counter and no freeze: its runs are judged by 0xC0 on the plan's
 * reserved general counter, and an SMI there (PMCx02B, Zen 2 .. Zen 5) is
 * always one the counters counted. Without an instruction count a run with
 * an SMI is repeated, as nothing else can judge it.
 *
 * An SMI outside the window but inside the run (between the first
 * programming write and the last counter read: counts.smi_outside, or
 * counts.smm_restarted when it came right after the stop write) repeats
 * the run whatever the counts say: with FREEZE_WHILE_SMM, RSM sets the
 * GLOBAL_CTRL enables (SDM vol. 3B "Filtering of SMM Handler Overhead"), so
 * the armed counters counted the session's own instructions around the
 * window, a few counts per access, far inside the instruction tolerance.
 * Without the freeze GLOBAL_CTRL stays 0 there and the counts are probably
 * right, but the gaps are short and rarely hit: repeating costs one run.
 */
static bool disagrees(const struct engine *e, const struct raw_run *r, uint64_t ref, char *why,
		      size_t whylen)
{
	struct bt_pmu_smi s;
	bt_pmu_smi_of(&r->c, &s);
	enum bt_smi_verdict v = bt_pmu_smi_verdict(&s);
	bool smi = v != BT_SMI_NONE;
	bool smi_counted = v == BT_SMI_COUNTED;

	if (v == BT_SMI_OUTSIDE) {
		snprintf(why, whylen, "%s", bt_pmu_smi_why(v));
		return true;
	}
	if (!r->c.has_inst || ref == 0) {
		if (smi)
			snprintf(why, whylen, "SMI in the window, no instruction count to judge it");
		return smi;
	}
	double d = ((double)run_inst(e, r) - (double)ref) / (double)ref;
	if (d > e->opts->tolerance || d < -e->opts->tolerance) {
		snprintf(why, whylen, "instructions %+.3f%%%s", d * 100.0,
			 smi_counted ? ", SMI counted (not frozen in SMM)" : smi ? ", SMI" : "");
		return true;
	}
	if (smi_counted) {
		snprintf(why, whylen, "%s", bt_pmu_smi_why(v));
		return true;
	}
	return false;
}

static uint64_t median_inst(const struct engine *e, int n_runs)
{
	uint64_t *v = malloc((size_t)n_runs * sizeof(*v));
	uint64_t med;

	if (!v)
		return 0;
	for (int k = 0; k < n_runs; k++)
		v[k] = run_inst(e, &e->runs[k]);
	med = bt_median_u64(v, n_runs);
	free(v);
	return med;
}

static void aggregate(struct engine *e, int n_runs)
{
	struct bt_measurement *m = e->m;
	int n = e->plan->n_events;
	uint64_t *v = malloc((size_t)n_runs * sizeof(*v));

	if (!v)
		return;
	for (int i = 0; i < n; i++) {
		struct bt_measure_stat *st = &m->ev[i];
		int k = 0;
		uint64_t *raw = malloc((size_t)n_runs * sizeof(*raw));

		if (!raw)
			break;
		st->group = e->plan->ev[i].place == BT_PLACE_GP ? e->plan->ev[i].group : -1;
		for (int r = 0; r < n_runs; r++) {
			const struct raw_run *rr = &e->runs[r];
			if (!rr->c.measured[i])
				continue;
			raw[k] = rr->c.count[i];
			v[k] = corrected(e, rr->c.group, i, rr->c.count[i], &st->clamped);
			k++;
		}
		if (k) {
			st->measured = true;
			st->median = bt_median_u64(v, k);
			st->raw_median = bt_median_u64(raw, k);
			st->min = st->max = v[0];
			for (int j = 1; j < k; j++) {
				if (v[j] < st->min)
					st->min = v[j];
				if (v[j] > st->max)
					st->max = v[j];
			}
			st->overhead = st->raw_median >= st->median ? st->raw_median - st->median : 0;
		}
		free(raw);
	}
	free(v);
}

static void summarize_runs(struct engine *e, int n_runs)
{
	struct bt_measurement *m = e->m;
	uint64_t *inst = malloc((size_t)n_runs * sizeof(*inst));
	uint64_t *cyc = malloc((size_t)n_runs * sizeof(*cyc));
	uint64_t *tsc = malloc((size_t)n_runs * sizeof(*tsc));
	int ni = 0, nc = 0, xe = -1;

	/* The reference-clock check's event, where the caller planned one
	 * (pmu/sibling.h): counted in its group's runs only. */
	for (int i = 0; e->opts->xclk_event && i < e->plan->n_events && xe < 0; i++)
		if (e->events[i] == e->opts->xclk_event)
			xe = i;

	if (!inst || !cyc || !tsc)
		goto out;
	for (int k = 0; k < n_runs; k++) {
		const struct raw_run *r = &e->runs[k];
		struct bt_measure_run *mr = &m->runs[k];
		int g = r->c.group;

		mr->group = (int16_t)g;
		mr->has_inst = r->c.has_inst;
		if (mr->has_inst)
			inst[ni++] = mr->inst = run_inst(e, r);
		mr->has_cycles = r->c.fixed_used & (1u << FIXED_CYCLES);
		if (mr->has_cycles) {
			uint64_t c = r->c.fixed_delta[FIXED_CYCLES], o = e->calib_cycles[g];
			cyc[nc++] = mr->cycles = c > o ? c - o : 0;
		}
		tsc[k] = mr->tsc = r->c.tsc_delta;
		mr->has_aperf_mperf = r->c.has_aperf_mperf;
		mr->aperf = r->c.aperf_delta;
		mr->mperf = r->c.mperf_delta;
		mr->has_smi = r->c.has_smi_count;
		mr->smi = r->c.smi_delta;
		mr->has_sibling = r->c.has_sibling;
		mr->one_thread_active = r->c.one_thread_active;
		mr->has_ref_tsc = mr->has_sibling && (r->c.fixed_used & (1u << FIXED_REF_TSC));
		mr->ref_tsc = mr->has_ref_tsc ? r->c.fixed_delta[FIXED_REF_TSC] : 0;
		mr->has_xclk = r->c.has_xclk || (xe >= 0 && r->c.measured[xe]);
		mr->ref_xclk = r->c.has_xclk ? r->c.ref_xclk : mr->has_xclk ? r->c.count[xe] : 0;
		if (mr->has_smi && mr->smi)
			m->n_smi_runs++;
	}
	if (ni) {
		m->inst_median = bt_median_u64(inst, ni);
		m->inst_min = m->inst_max = inst[0];
		for (int k = 1; k < ni; k++) {
			m->inst_min = inst[k] < m->inst_min ? inst[k] : m->inst_min;
			m->inst_max = inst[k] > m->inst_max ? inst[k] : m->inst_max;
		}
	}
	if (nc) {
		m->cycles_median = bt_median_u64(cyc, nc);
		m->cycles_min = m->cycles_max = cyc[0];
		for (int k = 1; k < nc; k++) {
			m->cycles_min = cyc[k] < m->cycles_min ? cyc[k] : m->cycles_min;
			m->cycles_max = cyc[k] > m->cycles_max ? cyc[k] : m->cycles_max;
		}
	}
	m->tsc_median = bt_median_u64(tsc, n_runs);
	m->calib_inst = bt_median_u64(e->calib_inst, m->n_groups_run);
out:
	free(inst);
	free(cyc);
	free(tsc);
}

bt_status bt_measure(const struct bt_pmu *pmu, const struct bt_plan *plan,
		     const struct bt_event *const *events,
		     const struct bt_measure_workload *wl, const struct bt_measure_opts *opts,
		     struct bt_measurement *ret)
{
	struct engine e = { .arch = pmu->arch, .plan = plan, .events = events, .wl = wl,
			    .opts = opts, .m = ret };
	int groups = plan->n_groups, reps = (int)opts->reps, n_runs = groups * reps;
	bt_status st = BT_OK, cst;

	memset(ret, 0, sizeof(*ret));
	ret->n_events = plan->n_events;
	if (reps < 1 || reps > BT_MEASURE_MAX_REPS)
		return failed(&e, "repetitions must be 1..%d", BT_MEASURE_MAX_REPS);
	if (groups < 1)
		return failed(&e, "the plan has no counter group");
	e.overhead = calloc((size_t)groups * (size_t)plan->n_events, sizeof(uint64_t));
	e.calib_inst = calloc((size_t)groups, sizeof(uint64_t));
	e.calib_cycles = calloc((size_t)groups, sizeof(uint64_t));
	e.runs = calloc((size_t)n_runs, sizeof(*e.runs));
	ret->runs = calloc((size_t)n_runs, sizeof(*ret->runs));
	if (!e.overhead || !e.calib_inst || !e.calib_cycles || !e.runs || !ret->runs) {
		st = failed(&e, "out of memory");
		goto out_free;
	}
	struct bt_pmu_session_opts so = opts->pmu;
	if (pmu->driver)
		so.driver = pmu->driver;
	if (bt_pmu_open(&e.s, pmu->arch, &pmu->caps, &so) != BT_OK) {
		st = failed(&e, "%s", bt_pmu_error(&e.s));
		goto out_close;
	}
	ret->smm_frozen = bt_pmu_session_smm_frozen(&e.s);
	if (opts->session_hook)
		opts->session_hook(opts->session_hook_ctx, &e.s);

	/* Phase 1: calibration, warm-ups and the repetitions of every group,
	 * each group planned against the budget before it starts (the first
	 * one after its warm-ups: nothing of this workload was timed before). */
	e.chunks = opts->chunks > 1 && wl->iterations >= opts->chunks && wl->set_range ?
		   opts->chunks : 1;
	e.clock = opts->clock ? opts->clock : pmu->arch;
	e.t_begin = bt_rdtsc(e.clock);
	int g_done = groups;
	for (int g = 0; g < groups && st == BT_OK; g++) {
		uint64_t est = 0, left = 0;
		unsigned calib = opts->calib_runs > BT_MEASURE_MAX_REPS ? BT_MEASURE_MAX_REPS
									  : opts->calib_runs;

		if (g > 0 && !budget_fits(&e, opts->warmups + (unsigned)reps, calib, &est, &left)) {
			g_done = g;
			ret->budget_est_ticks = est;
			ret->budget_left_ticks = left;
			break;
		}
		if (opts->group_hook)
			opts->group_hook(opts->group_hook_ctx, g, groups);
		st = calibrate(&e, g);
		/* The window cap is decided on the first run of the workload, a
		 * warm-up (or one extra run without warm-ups); split from then on,
		 * group 0 is calibrated again in as many windows. */
		bool decide = g == 0 && opts->max_window_ticks && e.chunks <= 1;
		unsigned first_runs = opts->warmups ? opts->warmups : decide ? 1 : 0;
		for (unsigned w = 0; w < first_runs && st == BT_OK; w++) {
			struct raw_run discard;
			st = workload_window(&e, g, &discard.c);
			if (st == BT_OK && decide && w == 0 && decide_chunks(&e, discard.c.tsc_delta))
				st = calibrate(&e, g);
		}
		if (st == BT_OK && g == 0 && first_runs &&
		    !budget_fits(&e, (unsigned)reps, 0, &est, &left)) {
			g_done = 0;
			ret->budget_est_ticks = est;
			ret->budget_left_ticks = left;
			break;
		}
		for (int r = 0; r < reps && st == BT_OK; r++) {
			st = workload_window(&e, g, &e.runs[g * reps + r].c);
			ret->runs[g * reps + r].rep = (uint8_t)r;
			ret->runs[g * reps + r].attempts = 1;
		}
	}
	ret->chunks = e.chunks;
	ret->n_groups_run = g_done;
	ret->n_groups_skipped = groups - g_done;
	n_runs = g_done * reps;
	/* Phase 2: runs that disagree with the median of all runs (or saw an
	 * SMI) are repeated; a retry replaces the run when it agrees. A retry
	 * the budget cannot hold is not run: the run stays flagged. */
	if (st == BT_OK && n_runs) {
		uint64_t ref = median_inst(&e, n_runs);

		for (int k = 0; k < n_runs && st == BT_OK; k++) {
			struct bt_measure_run *mr = &ret->runs[k];
			char why[80];

			if (!disagrees(&e, &e.runs[k], ref, why, sizeof(why)))
				continue;
			snprintf(mr->why, sizeof(mr->why), "%s", why);
			ret->n_retried++;
			bool fixed = false;
			for (unsigned t = 0; t < opts->max_retries && st == BT_OK && !fixed; t++) {
				struct raw_run again;
				char why2[80];
				uint64_t est, left;

				if (!budget_fits(&e, opts->warmups + 1, 0, &est, &left)) {
					ret->n_retries_skipped++;
					break;
				}
				/* The retry runs after every group: warm up first. */
				struct raw_run warm;
				for (unsigned w = 0; w < opts->warmups && st == BT_OK; w++)
					st = workload_window(&e, e.runs[k].c.group, &warm.c);
				if (st == BT_OK)
					st = workload_window(&e, e.runs[k].c.group, &again.c);
				mr->attempts++;
				if (st == BT_OK && !disagrees(&e, &again, ref, why2, sizeof(why2))) {
					e.runs[k] = again;
					fixed = true;
				}
			}
			if (!fixed) {
				mr->flagged = true;
				ret->n_flagged++;
			}
		}
	}
out_close:
	ret->run_ticks = e.run_ticks; /* the retries' runs included */
	if (opts->session_hook)
		opts->session_hook(opts->session_hook_ctx, NULL);
	cst = bt_pmu_close(&e.s);
	snprintf(ret->pmu_warning, sizeof(ret->pmu_warning), "%s", bt_pmu_session_warnings(&e.s));
	if (st == BT_OK && cst != BT_OK)
		st = failed(&e, "restoring the PMU registers failed: %s", bt_pmu_error(&e.s));
	if (st == BT_OK) {
		ret->n_runs = n_runs;
		summarize_runs(&e, n_runs);
		aggregate(&e, n_runs);
	}
out_free:
	free(e.overhead);
	free(e.calib_inst);
	free(e.calib_cycles);
	free(e.runs);
	if (st != BT_OK) {
		free(ret->runs);
		ret->runs = NULL;
		ret->n_runs = 0;
	}
	return st;
}

void bt_measurement_free(struct bt_measurement *m)
{
	free(m->runs);
	m->runs = NULL;
	m->n_runs = 0;
}

bt_status bt_time_workload(struct bt_arch *arch, const struct bt_measure_workload *wl,
			   unsigned warmups, unsigned reps, bool mask_interrupts,
			   struct bt_timing *ret, struct bt_diag *d)
{
	uint64_t t[BT_MEASURE_MAX_REPS];

	if (reps < 1 || reps > BT_MEASURE_MAX_REPS) {
		bt_diag_set(d, "repetitions must be 1..%d", BT_MEASURE_MAX_REPS);
		return BT_ERR_INVALID;
	}
	for (unsigned k = 0; k < warmups + reps; k++) {
		bt_status st;
		uint64_t irq = 0, t0, t1;

		if (wl->before && (st = wl->before(wl->ctx, d)) != BT_OK)
			return st;
		if (mask_interrupts)
			irq = bt_irq_save(arch);
		t0 = bt_rdtsc(arch);
		wl->run(wl->arg);
		t1 = bt_rdtsc(arch);
		if (mask_interrupts)
			bt_irq_restore(arch, irq);
		if (wl->after && (st = wl->after(wl->ctx, d)) != BT_OK)
			return st;
		if (k >= warmups)
			t[k - warmups] = t1 - t0;
	}
	ret->runs = reps;
	ret->median = bt_median_u64(t, (int)reps);
	ret->min = ret->max = t[0];
	for (unsigned k = 1; k < reps; k++) {
		ret->min = t[k] < ret->min ? t[k] : ret->min;
		ret->max = t[k] > ret->max ? t[k] : ret->max;
	}
	return BT_OK;
}

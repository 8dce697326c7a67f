/* SPDX-License-Identifier: MIT */
/*
 * The atlas engine (validate/atlas.h): the encodings to program, batches
 * the planner places at its lower bound, each batch measured over every
 * kernel at n and 2n (the calibration window, kernel `empty`, is the
 * count at 0), and a class per event.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/arch-event.h"
#include "base/array.h"
#include "pmu/measure.h"
#include "pmu/plan.h"
#include "validate/atlas-internal.h"

const char *bt_atlas_class_name(enum bt_atlas_class c)
{
	static const char *const names[] = {
		[BT_ATLAS_ZERO] = "zero", [BT_ATLAS_CONSTANT] = "constant",
		[BT_ATLAS_LINEAR] = "linear", [BT_ATLAS_NONLINEAR] = "nonlinear",
		[BT_ATLAS_NOISY] = "noisy", [BT_ATLAS_REFUSED] = "refused",
		[BT_ATLAS_NOT_MODELLED] = "not modelled", [BT_ATLAS_NOT_MEASURED] = "not measured",
	};
	return (unsigned)c < BT_ARRAY_SIZE(names) ? names[c] : "?";
}

const char *bt_atlas_inv_state_name(enum bt_atlas_inv_state s)
{
	return s == BT_INV_HELD ? "held" : s == BT_INV_VIOLATED ? "violated" : "not checkable";
}

/* Fewer windows than --validate: the atlas runs every group over every
 * kernel twice; a class needs the spread, not a tight median. */
#define ATLAS_REPS_DEFAULT 3
#define ATLAS_CALIB_RUNS 3
/* Relative slack on top of the measured spread (real parts: a window's
 * interrupts are masked, but caches and predictors still vary). */
#define ATLAS_REL_SLACK 0.005
/* Noisy: runs of one size disagree by more than this share of the count. */
#define ATLAS_NOISY_REL 0.02

void bt_atlas_opts_defaults(struct bt_atlas_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reps = ATLAS_REPS_DEFAULT;
	o->warmups = BT_MEASURE_WARMUPS_DEFAULT;
	o->mask_interrupts = true;
}

/* The kernels: one per kind of declared count (instructions and
 * conditional branches, the branch kinds, calls and returns, loads,
 * stores, divides); --quick the two cheapest that still separate
 * branches from calls and returns. */
static const char *const kernels_full[] = {
	"loop-dec-jnz", "branch-mix", "call-ret", "load-stride", "store-stride", "div-chain", NULL,
};
static const char *const kernels_quick[] = { "loop-dec-jnz", "call-ret", NULL };

struct probes {
	struct bt_atlas_probe *v;
	int n, cap;
	struct bt_arena *names;
};

static struct bt_atlas_probe *add_probe(struct probes *p, const struct bt_event *ev, int of,
					enum bt_atlas_probe_kind kind, const char *suffix)
{
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 256;
		struct bt_atlas_probe *v = realloc(p->v, (size_t)cap * sizeof(*v));
		if (!v)
			return NULL;
		p->v = v;
		p->cap = cap;
	}
	struct bt_atlas_probe *q = &p->v[p->n++];
	memset(q, 0, sizeof(*q));
	q->ev = *ev;
	q->of = of;
	q->kind = (uint8_t)kind;
	q->dup = -1;
	if (suffix && !(q->ev.name = bt_arena_printf(p->names, "%s%s", ev->name, suffix)))
		return NULL;
	return q;
}

/* The encodings: each counted event as listed, and for the invariants,
 * derived from it:
 *   - an event counted per occurrence (CMASK 0, no INV/E/EQ) on a general
 *     counter: CMASK=1, CMASK=1+INV, CMASK=1+E (SDM vol. 3B 20.2.1.1);
 *   - an AnyThread event: the same without AnyThread;
 *   - fixed counters 0, 1 and 3 (Intel): the architectural events they are
 *     associated with, 0xC0/0x00, 0x3C/0x00 and Topdown Slots 0xA4/0x01,
 *     on a general counter (SDM vol. 3B Table 20-2, "Association of
 *     Fixed-Function Performance Counters with Architectural Performance
 *     Events"; Topdown Slots only where CPUID enumerates it, architectural
 *     event 7, and counts slots with it: no SLOTS_PER_CYC). Fixed counter
 *     2 (reference cycles at the TSC rate) has no general encoding of the
 *     same rate on every part (0x3C/0x01 counts the core crystal clock). */
static bt_status make_probes(const struct bt_pmu *pmu, const struct bt_atlas_list *l,
			     struct probes *p)
{
	bool intel = pmu->caps.kind == BT_PMU_INTEL_ARCH;

	for (int i = 0; i < l->n; i++) {
		const struct bt_atlas_event *e = &l->v[i];
		if (e->refused)
			continue;
		if (!add_probe(p, &e->ev, i, BT_PROBE_LIST, NULL))
			return BT_ERR_NOMEM;
		struct bt_event b = e->ev;
		bool gp = e->ev.counters != 0;
		if (gp && !b.cmask && !(b.flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_EQ))) {
			b.fixed = BT_EV_NO_FIXED;
			b.cmask = 1;
			if (!add_probe(p, &b, i, BT_PROBE_C1, ":c1"))
				return BT_ERR_NOMEM;
			b.flags |= BT_EVF_INV;
			if (!add_probe(p, &b, i, BT_PROBE_C1_INV, ":c1:i"))
				return BT_ERR_NOMEM;
			b.flags = (uint16_t)((b.flags & ~BT_EVF_INV) | BT_EVF_EDGE);
			if (!add_probe(p, &b, i, BT_PROBE_C1_EDGE, ":c1:e"))
				return BT_ERR_NOMEM;
		}
		if (e->ev.flags & BT_EVF_ANY) {
			b = e->ev;
			b.flags &= (uint16_t)~BT_EVF_ANY;
			if (!add_probe(p, &b, i, BT_PROBE_NO_ANY, ":no-any"))
				return BT_ERR_NOMEM;
		}
		bool slots = e->ev.fixed == 3 && (pmu->caps.arch_events & (1u << BT_ARCH_EV_TD_SLOTS)) &&
			     !pmu->caps.slots_per_cycle;
		if (intel && !e->ev.counters && (e->ev.fixed == 0 || e->ev.fixed == 1 || slots)) {
			static const uint16_t code[4] = { 0xC0, 0x3C, 0, 0xA4 };
			static const uint8_t umask[4] = { 0x00, 0x00, 0, 0x01 };
			static const char *const suffix[4] = { ":as-0xc0", ":as-0x3c", "", ":as-0xa4" };
			struct bt_event a = { .source = BT_SRC_PMC, .fixed = BT_EV_NO_FIXED,
					      .code = code[e->ev.fixed], .umask = umask[e->ev.fixed],
					      .counters = (uint32_t)((1ull << pmu->caps.num_gp) - 1),
					      .name = e->ev.name };
			if (!add_probe(p, &a, i, BT_PROBE_ALIAS_GP, suffix[e->ev.fixed]))
				return BT_ERR_NOMEM;
		}
	}
	/* One counter for identical encodings: a later one reads the earlier's
	 * counts (the list repeats encodings under two names). */
	for (int i = 0; i < p->n; i++)
		for (int j = 0; j < i; j++)
			if (p->v[j].dup < 0 && bt_plan_same_encoding(&p->v[i].ev, &p->v[j].ev) &&
			    p->v[i].ev.fixed == p->v[j].ev.fixed && p->v[i].ev.counters == p->v[j].ev.counters) {
				p->v[i].dup = j;
				p->v[i].skip = true;
				break;
			}
	return BT_OK;
}

/* The window's core cycles, counted in every batch beside the probes:
 * fixed counter 1 on Intel (every group counts it), 0x76 on AMD. */
static struct bt_event cycles_event(const struct bt_pmu *pmu)
{
	if (pmu->caps.kind == BT_PMU_INTEL_ARCH && pmu->caps.num_fixed > 1)
		return (struct bt_event){ .name = "cycles", .source = BT_SRC_PMC, .fixed = 1,
					  .umask = 0x02 };
	if (pmu->caps.kind == BT_PMU_INTEL_ARCH)
		return (struct bt_event){ .name = "cycles", .source = BT_SRC_PMC,
					  .fixed = BT_EV_NO_FIXED, .code = 0x3C,
					  .counters = (uint32_t)((1ull << pmu->caps.num_gp) - 1) };
	return (struct bt_event){ .name = "cycles", .source = BT_SRC_PMC, .fixed = BT_EV_NO_FIXED,
				  .code = 0x76, .counters = (uint32_t)((1ull << pmu->caps.num_gp) - 1) };
}

struct batch {
	int idx[BT_PLAN_MAX_EVENTS];
	int n;
};

/* The next batch: up to `cap` probes (TakenAlone ones, a group each, at
 * most a third of the planner's groups), from *next on. */
static bool next_batch(const struct probes *p, int *next, int cap, struct batch *b)
{
	int alone = 0;

	b->n = 0;
	while (*next < p->n && b->n < cap) {
		const struct bt_atlas_probe *q = &p->v[*next];
		if (q->skip) {
			(*next)++;
			continue;
		}
		if ((q->ev.flags & BT_EVF_ALONE) && alone == BT_PLAN_MAX_GROUPS / 3)
			break;
		alone += !!(q->ev.flags & BT_EVF_ALONE);
		b->idx[b->n++] = (*next)++;
	}
	return b->n > 0;
}

static uint64_t now(const struct bt_atlas_opts *o)
{
	return o->clock ? bt_rdtsc(o->clock) : 0;
}

/* What a kernel costs the run, timed with the wall clock outside any
 * window: the estimate's units. */
struct kernel_time {
	uint64_t run;     /* one run of the body at size n: the lower quartile of 8 */
	uint64_t setup;   /* one setup and teardown at n, with the first run's extra */
};

#define TIME_RUNS 8

/* The lower quartile of 8 runs (the 3rd fastest), neither the fastest
 * nor the median. Measured on this 2-core machine shared by a dozen busy
 * processes (load 12), each kernel run 200 times: the runs' wall-time
 * lower quartile was within 3 % of their median CPU time for all six
 * kernels, while the fastest run was up to 2x below it (the host's other
 * work slows even the CPU time of most runs) and the wall median up to 2x
 * above it (preempted runs). So the estimate is the CPU time the run
 * needs, what an otherwise idle core takes in wall time; other load
 * stretches the wall time on top. The buffer is written once before the
 * timed runs: a hosted calloc'd buffer that is only read maps Linux's one
 * zero page (load-stride then ran 7x faster than in its windows, whose
 * buffers come from reused, written heap memory); the first run after
 * setup pays the buffer's first touch, which every setup of the run pays
 * again (one per batch, kernel and size). */
static struct kernel_time time_kernel(const struct bt_kernel *k, uint64_t n,
				      const struct bt_atlas_opts *o)
{
	struct kernel_time r = { 0, 0 };
	struct bt_kernel_state st;
	struct bt_diag d = { "" };
	uint64_t t[TIME_RUNS];

	memset(&st, 0, sizeof(st));
	if (!o->clock)
		return r;
	/* Once untimed: the body's and setup's first execution ever (QEMU
	 * translating them, pages of code faulted in) is paid once per run,
	 * not once per setup. */
	if (bt_kernel_setup(k, n, &o->kcpu, &st, &d) != BT_OK)
		return r;
	k->run(&st);
	bt_kernel_teardown(k, &st);
	memset(&st, 0, sizeof(st));
	uint64_t t0 = now(o);
	if (bt_kernel_setup(k, n, &o->kcpu, &st, &d) != BT_OK)
		return r;
	if (st.buf && st.buf_bytes)
		memset(st.buf, 0, (size_t)st.buf_bytes); /* the zeroed buffer it was */
	k->run(&st);
	uint64_t t_first = now(o) - t0;
	for (int i = 0; i < TIME_RUNS; i++) {
		uint64_t t1 = now(o);
		k->run(&st);
		t[i] = now(o) - t1;
	}
	uint64_t t2 = now(o);
	bt_kernel_teardown(k, &st);
	uint64_t t_down = now(o) - t2;
	for (int i = 1; i < TIME_RUNS; i++) /* sorted: 8 values */
		for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
			uint64_t x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	r.run = t[2]; /* the 3rd fastest of 8: the lower quartile */
	r.setup = (t_first > r.run ? t_first - r.run : 0) + t_down;
	return r;
}

static void fill_counts(struct probes *p, const struct batch *b, const struct bt_measurement *m,
			int ki, int si)
{
	const struct bt_measure_stat *cyc = &m->ev[b->n];
	for (int j = 0; j < b->n; j++) {
		const struct bt_measure_stat *s = &m->ev[j];
		struct bt_atlas_count *c = &p->v[b->idx[j]].c[ki][si];
		if (!s->measured)
			continue;
		*c = (struct bt_atlas_count){
			.measured = true, .clamped = s->clamped, .median = s->median, .min = s->min,
			.max = s->max, .overhead = s->overhead,
			.cycles = cyc->measured ? cyc->median : 0,
			.cycles_spread = cyc->measured ? cyc->max - cyc->min : 0,
			.cycles_overhead = cyc->measured ? cyc->overhead : 0,
		};
	}
}

/* Measures one batch over one kernel at both sizes. */
static bt_status measure_batch(const struct bt_pmu *pmu, struct probes *p, const struct batch *b,
			       const struct bt_event *const *evp, const struct bt_plan *plan,
			       struct bt_atlas *a, int ki, const struct bt_atlas_opts *o,
			       uint64_t t_start, struct bt_measurement *m, char *why, size_t why_len)
{
	const struct bt_kernel *k = a->kernels[ki];
	const struct bt_kernel *empty = bt_kernel_find("empty");
	uint64_t t_begin = now(o);
	bt_status ret = BT_OK;

	for (int si = 0; si < 2 && ret == BT_OK; si++) {
		uint64_t n = a->sizes[ki] * (uint64_t)(si + 1);
		struct bt_kernel_state st;
		struct bt_diag d = { "" };
		memset(&st, 0, sizeof(st));
		if (bt_kernel_setup(k, n, &o->kcpu, &st, &d) != BT_OK) {
			snprintf(why, why_len, "kernel %s: %.150s", k->name, d.text);
			ret = BT_ERR_UNSUPPORTED;
			break;
		}
		if (o->prepare)
			o->prepare(o->sim_ctx, k, &st);
		struct bt_measure_workload wl = { .run = k->run, .arg = &st };
		struct bt_measure_opts mo;
		bt_measure_opts_defaults(&mo);
		mo.reps = a->reps;
		mo.warmups = a->warmups;
		mo.calib_runs = a->calib_runs;
		mo.mask_interrupts = o->mask_interrupts;
		mo.calib_body = empty ? empty->run : NULL;
		if (o->budget_ticks && o->clock) {
			uint64_t used = now(o) - t_start;
			mo.budget_ticks = used < o->budget_ticks ? o->budget_ticks - used : 1;
			mo.clock = o->clock;
		}
		bt_status s = bt_measure(pmu, plan, evp, &wl, &mo, m);
		bt_kernel_teardown(k, &st);
		if (s != BT_OK) {
			snprintf(why, why_len, "measurement failed: %.150s", m->error);
			bt_measurement_free(m);
			ret = s;
			break;
		}
		a->windows_run += (uint64_t)m->n_groups_run * (a->calib_runs + a->warmups + a->reps) +
				  (uint64_t)m->n_retried;
		if (m->n_groups_skipped)
			a->budget_cut = true;
		fill_counts(p, b, m, ki, si);
		bt_measurement_free(m);
	}
	if (o->tsc_hz)
		a->took_kernel_s[ki] += (double)(now(o) - t_begin) / (double)o->tsc_hz;
	return ret;
}

/* ------------------------------------------------------------ classes */

static void classify_kernel(const struct bt_atlas_probe *q, const struct bt_kernel *k, uint64_t n,
			    int ki, struct bt_atlas_kernel_result *r)
{
	const struct bt_atlas_count *c1 = &q->c[ki][0], *c2 = &q->c[ki][1];

	memset(r, 0, sizeof(*r));
	if (!c1->measured || !c2->measured) {
		r->cls = BT_ATLAS_NOT_MEASURED;
		return;
	}
	double m1 = (double)c1->median, m2 = (double)c2->median;
	double spread = (double)((c1->max - c1->min) > (c2->max - c2->min) ? c1->max - c1->min
									  : c2->max - c2->min);
	double tol = spread + 1.0 + ATLAS_REL_SLACK * m2;
	if (!c1->overhead && !c2->overhead && !c1->max && !c2->max) {
		r->cls = BT_ATLAS_ZERO;
		return;
	}
	if (spread > ATLAS_NOISY_REL * (m2 > (double)c2->overhead ? m2 : (double)c2->overhead) + 2) {
		r->cls = BT_ATLAS_NOISY;
		return;
	}
	if (fabs(m2 - m1) <= tol) {
		/* The same at n and 2n: nothing per kernel unit. Equal to the
		 * empty window too (corrected ~0), or a fixed number per run
		 * above it (a loop's one exit). */
		r->cls = BT_ATLAS_CONSTANT;
		r->intercept = m1;
		return;
	}
	if (fabs(m2 - 2 * m1) > tol || m1 <= tol) {
		r->cls = BT_ATLAS_NONLINEAR;
		return;
	}
	r->cls = BT_ATLAS_LINEAR;
	r->slope = (m2 - m1) / (double)n;
	r->intercept = m1 - r->slope * (double)n;
	for (int i = 0; i < BT_KERNEL_MAX_COUNTS && k->counts[i].name; i++) {
		double per = (double)k->counts[i].c1;
		if (per > 0 && fabs((m2 - m1) - per * (double)n) <= tol && r->n_matches < BT_ATLAS_MAX_MATCH)
			r->matches[r->n_matches++] = k->counts[i].name;
	}
}

static void add_why(char *why, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t u = strlen(why);
	if (u < len)
		snprintf(why + u, len - u, fmt, a, b);
}

static void classify(struct bt_atlas *a, const struct probes *p, const int *list_probe,
		     const struct bt_atlas_opts *o)
{
	for (int i = 0; i < a->n; i++) {
		struct bt_atlas_result *r = &a->res[i];
		const struct bt_atlas_event *e = &a->list->v[i];
		r->e = e;
		if (e->refused) {
			r->cls = BT_ATLAS_REFUSED;
			snprintf(r->why, sizeof(r->why), "%s", e->refused);
			continue;
		}
		if (r->cls == BT_ATLAS_REFUSED || r->cls == BT_ATLAS_NOT_MEASURED)
			continue; /* set by the planner or the measurement */
		const struct bt_atlas_probe *q = &p->v[list_probe[i]];
		if (q->dup >= 0)
			q = &p->v[q->dup];
		if (o->models && !o->models(o->sim_ctx, &e->ev)) {
			r->cls = BT_ATLAS_NOT_MODELLED;
			snprintf(r->why, sizeof(r->why), "not modelled by the simulated PMU: its rules "
				 "have no count for this encoding, so it counts 0 (not a dead event)");
			continue;
		}
		int first_lin = -1, first_match = -1, n_noisy = 0, n_nonlin = 0, n_const = 0, n_nm = 0;
		for (int ki = 0; ki < a->n_kernels; ki++) {
			classify_kernel(q, a->kernels[ki], a->sizes[ki], ki, &r->k[ki]);
			switch (r->k[ki].cls) {
			case BT_ATLAS_LINEAR:
				if (first_lin < 0)
					first_lin = ki;
				if (first_match < 0 && r->k[ki].n_matches)
					first_match = ki;
				break;
			case BT_ATLAS_NOISY: n_noisy++; break;
			case BT_ATLAS_NONLINEAR: n_nonlin++; break;
			case BT_ATLAS_CONSTANT: n_const++; break;
			case BT_ATLAS_NOT_MEASURED: n_nm++; break;
			default: break;
			}
		}
		r->why[0] = '\0';
		if (n_nm == a->n_kernels) {
			r->cls = BT_ATLAS_NOT_MEASURED;
			snprintf(r->why, sizeof(r->why), "no kernel window counted it%s",
				 a->budget_cut ? " (the --budget ran out)" : "");
			continue;
		}
		r->cls = n_noisy ? BT_ATLAS_NOISY : first_lin >= 0 ? BT_ATLAS_LINEAR
		       : n_nonlin ? BT_ATLAS_NONLINEAR : n_const ? BT_ATLAS_CONSTANT : BT_ATLAS_ZERO;
		int pick = first_match >= 0 ? first_match : first_lin;
		if (r->cls == BT_ATLAS_LINEAR) {
			r->slope = r->k[pick].slope;
			r->intercept = r->k[pick].intercept;
			r->slope_kernel = a->kernels[pick]->name;
			/* A declared count it matches on one kernel and contradicts
			 * on none: each kernel that declares it and counted the
			 * event (linear, or constant / zero: slope 0) agrees. */
			for (int m = 0; m < r->k[pick].n_matches; m++) {
				const char *x = r->k[pick].matches[m];
				bool ok = true;
				for (int ki = 0; ki < a->n_kernels && ok; ki++) {
					const struct bt_atlas_kernel_result *kr = &r->k[ki];
					int64_t per0, per1;
					if (kr->cls != BT_ATLAS_LINEAR && kr->cls != BT_ATLAS_CONSTANT &&
					    kr->cls != BT_ATLAS_ZERO)
						continue;
					if (!bt_kernel_count(a->kernels[ki], x, 0, &per0) ||
					    !bt_kernel_count(a->kernels[ki], x, 1, &per1))
						continue;
					double slope = kr->cls == BT_ATLAS_LINEAR ? kr->slope : 0;
					double tol = 0.01 * (double)(per1 - per0) + 1.0 / (double)a->sizes[ki];
					ok = fabs(slope - (double)(per1 - per0)) <= tol;
				}
				if (ok)
					r->matches[r->n_matches++] = x;
			}
		}
		for (int ki = 0; ki < a->n_kernels; ki++)
			add_why(r->why, sizeof(r->why), "%s%s", ki ? ", " : "",
				a->kernels[ki]->name), add_why(r->why, sizeof(r->why), "%s%s", " ",
							       bt_atlas_class_name(r->k[ki].cls));
	}
}

/* ------------------------------------------------------------ the run */

bt_status bt_atlas_run(const struct bt_pmu *pmu, const struct bt_atlas_list *l,
		       const struct bt_atlas_opts *o, struct bt_atlas *a, struct bt_diag *d)
{
	struct probes p = { 0 };
	struct bt_plan_scratch *scratch = malloc(sizeof(*scratch));
	struct bt_plan *plan = malloc(sizeof(*plan));
	struct bt_measurement *m = malloc(sizeof(*m));
	struct bt_arena *names = malloc(sizeof(*names));
	int *list_probe = calloc((size_t)(l->n ? l->n : 1), sizeof(*list_probe));
	bt_status st = BT_ERR_NOMEM;

	memset(a, 0, sizeof(*a));
	a->list = l;
	a->n = l->n;
	a->res = calloc((size_t)(l->n ? l->n : 1), sizeof(*a->res));
	if (!scratch || !plan || !m || !names || !list_probe || !a->res)
		goto out;
	bt_arena_init(names);
	p.names = names;
	a->reps = o->reps ? o->reps : ATLAS_REPS_DEFAULT;
	a->warmups = o->warmups;
	a->calib_runs = ATLAS_CALIB_RUNS;
	for (const char *const *kn = o->quick ? kernels_quick : kernels_full; *kn; kn++) {
		const struct bt_kernel *k = bt_kernel_find(*kn);
		if (!k || a->n_kernels == BT_ATLAS_MAX_KERNELS)
			continue;
		uint64_t n = o->quick ? k->n_quick : k->n_default;
		if (2 * n > k->n_max)
			continue;
		a->kernels[a->n_kernels] = k;
		a->sizes[a->n_kernels++] = n;
	}
	if ((st = make_probes(pmu, l, &p)) != BT_OK)
		goto out;
	for (int i = 0; i < p.n; i++)
		if (p.v[i].kind == BT_PROBE_LIST)
			list_probe[p.v[i].of] = i;
	for (int i = 0; i < p.n; i++)
		a->encodings += !p.v[i].skip;

	/* Plan every batch first: the cost is known before anything runs. */
	int gp = pmu->caps.num_gp ? pmu->caps.num_gp : 1;
	int cap = ((BT_PLAN_MAX_EVENTS - 1) / gp) * gp;
	struct bt_event cyc = cycles_event(pmu);
	struct bt_plan_opts popts = { 0 };
	const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
	struct batch b;
	int next = 0;
	while (next_batch(&p, &next, cap, &b)) {
		for (int j = 0; j < b.n; j++)
			evp[j] = &p.v[b.idx[j]].ev;
		evp[b.n] = &cyc;
		bt_plan_events(evp, b.n + 1, &pmu->caps, &popts, scratch, plan);
		a->batches++;
		a->groups += plan->n_groups;
		a->lower_bound += plan->lower_bound;
	}
	uint64_t per_group = (uint64_t)a->calib_runs + a->warmups + a->reps;
	a->windows_lower_bound = (uint64_t)a->lower_bound * (uint64_t)a->n_kernels * 2 * per_group;
	a->windows_planned = (uint64_t)a->groups * (uint64_t)a->n_kernels * 2 * per_group;
	/*
	 * The estimate (what the run costs on a CPU it has to itself; other
	 * load stretches the wall time, not the work):
	 *   runs      each group's warm-ups and runs over each kernel at n
	 *             and 2n: groups x (warm-ups + runs) x 3 x the kernel's
	 *             time at n (its runs' lower quartile, time_kernel);
	 *   calib     each group's calibration windows (kernel `empty`) at
	 *             both sizes: groups x kernels x 2 x calibration runs;
	 *   windows   each window's own cost (programming the counters,
	 *             reading them; on the simulated PMU the simulation) x
	 *             every window planned, and each measurement's (the PMU
	 *             session opened and closed) x batches x kernels x 2,
	 *             both from two timed trial measurements of the empty
	 *             kernel with one full group (4 and 32 windows, after
	 *             an untimed one);
	 *   setups    each kernel's setup, first touch and teardown, once per
	 *             batch and size (n and 2n: 3 times its cost at n).
	 */
	const struct bt_kernel *empty = bt_kernel_find("empty");
	uint64_t t_empty = empty ? time_kernel(empty, 1, o).run : 0, est = 0;
	uint64_t e_runs[BT_ATLAS_MAX_KERNELS] = { 0 }, e_setup[BT_ATLAS_MAX_KERNELS] = { 0 };
	uint64_t e_calib = (uint64_t)a->groups * 2 * a->calib_runs * t_empty;
	for (int ki = 0; ki < a->n_kernels; ki++) {
		struct kernel_time t = time_kernel(a->kernels[ki], a->sizes[ki], o);
		e_runs[ki] = (uint64_t)a->groups * (a->warmups + a->reps) * 3 * t.run;
		e_setup[ki] = (uint64_t)a->batches * 3 * t.setup;
	}
	uint64_t per_window = 0, per_session = 0;
	if (o->clock && empty) {
		/* A full group, as the atlas's are: the cycles counter and the
		 * first probes that share one group with it. */
		const struct bt_event *one[BT_PMU_MAX_GP + 1] = { &cyc };
		int n1 = 1;
		for (int i = 0; i < p.n && n1 <= gp && n1 <= BT_PMU_MAX_GP; i++)
			if (!p.v[i].skip && p.v[i].ev.counters && !(p.v[i].ev.flags & BT_EVF_ALONE))
				one[n1++] = &p.v[i].ev;
		while (n1 > 1 && (bt_plan_events(one, n1, &pmu->caps, &popts, scratch, plan) != BT_OK ||
				  plan->n_groups > 1))
			n1--;
		/* Trial 0 untimed (the measurement's code run for the first
		 * time: under QEMU its translation), then 4 and 32 windows
		 * alternately. */
		uint64_t t[3] = { 0, 0, 0 };
		bool ok = bt_plan_events(one, n1, &pmu->caps, &popts, scratch, plan) == BT_OK;
		/* Each timed size 4 times, its 2nd fastest kept: a trial is
		 * short, and one preempted trial made the windows' share 30x
		 * too large on a loaded machine. */
		uint64_t tt[2][4];
		for (int k = 0; k < 9 && ok; k++) {
			struct bt_kernel_state est_st;
			memset(&est_st, 0, sizeof(est_st));
			struct bt_measure_workload wl = { .run = empty->run, .arg = &est_st };
			struct bt_measure_opts mo;
			bt_measure_opts_defaults(&mo);
			bool big = k > 0 && k % 2 == 0;
			mo.reps = mo.calib_runs = big ? 16 : 2;
			mo.warmups = 0;
			mo.mask_interrupts = o->mask_interrupts;
			mo.calib_body = empty->run;
			if (o->prepare)
				o->prepare(o->sim_ctx, empty, &est_st);
			uint64_t t1 = now(o);
			ok = bt_measure(pmu, plan, one, &wl, &mo, m) == BT_OK;
			if (k > 0)
				tt[big][(k - 1) / 2] = now(o) - t1;
			bt_measurement_free(m);
		}
		for (int sz = 0; sz < 2 && ok; sz++) {
			for (int i = 1; i < 4; i++)
				for (int j = i; j > 0 && tt[sz][j] < tt[sz][j - 1]; j--) {
					uint64_t x = tt[sz][j];
					tt[sz][j] = tt[sz][j - 1];
					tt[sz][j - 1] = x;
				}
			t[1 + sz] = tt[sz][1];
		}
		if (ok) {
			per_window = t[2] > t[1] ? (t[2] - t[1]) / 28 : 0;
			per_session = t[1] > 4 * per_window ? t[1] - 4 * per_window : 0;
		}
	}
	uint64_t e_windows = per_window * a->windows_planned;
	uint64_t e_session = per_session * (uint64_t)a->batches * (uint64_t)a->n_kernels * 2;
	est = e_calib + e_windows + e_session;
	double hz = o->tsc_hz ? (double)o->tsc_hz : 0;
#define SEC(x) (hz > 0 ? (double)(x) / hz : 0)
	for (int ki = 0; ki < a->n_kernels; ki++) {
		est += e_runs[ki] + e_setup[ki];
		a->est_runs_s += SEC(e_runs[ki]);
		a->est_setup_s += SEC(e_setup[ki]);
		/* Its own runs and setups, and its share of the rest. */
		a->est_kernel_s[ki] = SEC(e_runs[ki] + e_setup[ki] +
					  (e_calib + e_windows + e_session) / (uint64_t)a->n_kernels);
	}
	a->est_calib_s = SEC(e_calib);
	a->est_window_s = SEC(e_windows);
	a->est_session_s = SEC(e_session);
	a->est_window_us = SEC(per_window) * 1e6;
#undef SEC
	a->est_seconds = o->tsc_hz ? (double)est / (double)o->tsc_hz : 0;
	if (o->out) {
		int refused = 0;
		for (int i = 0; i < l->n; i++)
			refused += l->v[i].refused != NULL;
		fprintf(o->out, "atlas         %d events (%d refused), %d encodings with the invariants' "
			"derived ones, %d planner batches\n", l->n, refused, a->encodings, a->batches);
		fprintf(o->out, "atlas         cost: %d groups (lower bound %d) x %d kernels x 2 sizes x "
			"%llu windows (%u calibration + %u warm-up + %u runs) = %llu windows (lower "
			"bound %llu), estimated %.1f s%s\n", a->groups, a->lower_bound, a->n_kernels,
			(unsigned long long)per_group, a->calib_runs, a->warmups, a->reps,
			(unsigned long long)a->windows_planned,
			(unsigned long long)a->windows_lower_bound, a->est_seconds,
			o->tsc_hz ? "" : " (no TSC rate: unknown)");
		if (o->tsc_hz)
			fprintf(o->out, "atlas         estimate: kernel runs %.1f s (each kernel's runs' "
				"lower quartile), calibration %.1f s, windows %.1f s (%.1f us each: "
				"programming, reading%s), sessions %.1f s, kernel setups %.1f s; "
				"assumes a CPU of its own (other load stretches it)\n",
				a->est_runs_s, a->est_calib_s, a->est_window_s, a->est_window_us,
				o->prepare ? ", simulating" : "", a->est_session_s, a->est_setup_s);
	}

	uint64_t t0 = now(o);
	next = 0;
	int bi = 0;
	while (next_batch(&p, &next, cap, &b)) {
		for (int j = 0; j < b.n; j++)
			evp[j] = &p.v[b.idx[j]].ev;
		evp[b.n] = &cyc;
		bt_status ps = bt_plan_events(evp, b.n + 1, &pmu->caps, &popts, scratch, plan);
		bi++;
		for (int j = 0; j < b.n; j++) {
			const struct bt_atlas_probe *q = &p.v[b.idx[j]];
			if (q->kind != BT_PROBE_LIST)
				continue;
			struct bt_atlas_result *r = &a->res[q->of];
			if (plan->ev[j].place == BT_PLACE_UNMEASURABLE) {
				r->cls = BT_ATLAS_REFUSED;
				snprintf(r->why, sizeof(r->why), "not countable on this PMU: %s",
					 plan->ev[j].reason);
			} else if (plan->ev[j].place == BT_PLACE_NONE || ps != BT_OK) {
				r->cls = BT_ATLAS_NOT_MEASURED;
				snprintf(r->why, sizeof(r->why), "the planner could not place it");
			}
		}
		if (ps != BT_OK)
			continue;
		bool over = o->budget_ticks && o->clock && now(o) - t0 >= o->budget_ticks;
		for (int ki = 0; ki < a->n_kernels && !over; ki++) {
			char why[200] = "";
			bt_status ms = measure_batch(pmu, &p, &b, evp, plan, a, ki, o, t0, m, why,
						     sizeof(why));
			if (ms == BT_ERR_NOMEM) {
				st = ms;
				goto out;
			}
			if (ms != BT_OK && o->out)
				fprintf(o->out, "atlas         batch %d, %s: %s\n", bi,
					a->kernels[ki]->name, why);
		}
		if (over)
			a->budget_cut = true;
		if (o->out && (bi % 4 == 0 || next >= p.n))
			fprintf(o->out, "atlas         batch %d/%d measured (%llu windows so far)\n", bi,
				a->batches, (unsigned long long)a->windows_run);
	}
	a->seconds = o->tsc_hz && o->clock ? (double)(now(o) - t0) / (double)o->tsc_hz : 0;
	for (int i = 0; i < p.n; i++)
		if (p.v[i].dup >= 0)
			memcpy(p.v[i].c, p.v[p.v[i].dup].c, sizeof(p.v[i].c));
	classify(a, &p, list_probe, o);
	for (int i = 0; i < a->n; i++)
		a->counts[a->res[i].cls]++;
	st = bt_atlas_judge_invariants(a, p.v, p.n, o->width ? o->width : 8);
	if (st == BT_OK) {
		/* The names the invariants point at live as long as the atlas:
		 * the arena moves to it. */
		a->names = names;
		names = NULL;
	}
out:
	if (st == BT_ERR_NOMEM)
		bt_diag_set(d, "atlas: out of memory");
	if (names) {
		bt_arena_free(names);
		free(names);
	}
	free(p.v);
	free(list_probe);
	free(scratch);
	free(plan);
	free(m);
	return st;
}

void bt_atlas_free(struct bt_atlas *a)
{
	if (!a)
		return;
	free(a->res);
	free(a->inv);
	if (a->names) {
		bt_arena_free(a->names);
		free(a->names);
	}
	memset(a, 0, sizeof(*a));
}

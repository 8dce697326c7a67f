/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/near-name.h"
#include "pmu/event-encode.h"
#include "pmu/measure.h"
#include "pmu/plan.h"
#include "validate/expect.h"
#include "validate/run.h"

void bt_validate_opts_defaults(struct bt_validate_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reps = BT_MEASURE_REPS_DEFAULT;
	o->warmups = BT_MEASURE_WARMUPS_DEFAULT;
	o->mask_interrupts = true;
}

enum bt_verdict bt_validate_judge(double min, double max, double lo, double hi,
				  double tolerance_pct, double warn_pct)
{
	double mag = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
	if (mag < 0.5)
		mag = 0.5;
	double t = mag * tolerance_pct / 100.0, w = mag * warn_pct / 100.0;
	/* Counts are integers: an exact expectation of 20002 with 0 % accepts
	 * 20002 only (the +-0.5 absorbs a floating-point expression's rounding). */
	if (t < 0.5)
		t = 0.5;
	if (w < t)
		w = t;
	if (min >= lo - t && max <= hi + t)
		return BT_VERDICT_PASS;
	if (min >= lo - w && max <= hi + w)
		return BT_VERDICT_WARN;
	return BT_VERDICT_FAIL;
}

static enum bt_vendor vendor_of(const struct bt_pmu_caps *caps)
{
	return caps->kind == BT_PMU_INTEL_ARCH ? BT_VENDOR_INTEL : BT_VENDOR_AMD;
}

/* An event by raw syntax or model name; the reason in why when it is neither. */
struct resolved {
	struct bt_raw_event raw;
	struct bt_event ev;
};

static bool looks_raw(const char *s)
{
	if (strchr(s, '/'))
		return true;
	if (strcmp(s, "tsc") == 0 || strcmp(s, "duration_time") == 0)
		return true;
	if (s[0] != 'r' || !s[1])
		return false;
	for (const char *p = s + 1; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
			return false;
	return true;
}

static bt_status resolve(const char *name, const struct bt_pmu_caps *caps,
			 const struct bt_model *model, struct resolved *r, struct bt_diag *why)
{
	struct bt_diag d = { "" };

	memset(r, 0, sizeof(*r));
	if (looks_raw(name)) {
		if (bt_event_parse(name, vendor_of(caps), &r->raw, &d) != BT_OK) {
			bt_diag_set(why, "raw event not valid on this PMU: %s", d.text);
			return BT_ERR_INVALID;
		}
		r->ev = r->raw.ev;
		r->ev.name = r->raw.name;
		return BT_OK;
	}
	int i = model ? bt_model_event_find(model, name) : -1;
	if (i < 0) {
		bt_diag_set(why, "not a raw event and not in the model's event list%s",
			    model ? "" : " (no model for this CPU)");
		return BT_ERR_NOT_FOUND;
	}
	r->ev = *bt_model_event(model, (unsigned)i);
	return BT_OK;
}

/* An event checked as a Top-Down run counts it (bt_plan_counted_form): a
 * filtered fixed-counter event such as CPU_CLK_UNHALTED.THREAD_ANY on its
 * architectural general-counter twin, so validation judges the encoding
 * the tree's counts come from. */
static bt_status resolve_counted(const char *name, const struct bt_pmu_caps *caps,
				 const struct bt_model *model, struct resolved *r,
				 struct bt_diag *why)
{
	struct bt_event form;
	bt_status st = resolve(name, caps, model, r, why);

	if (st == BT_OK && bt_plan_counted_form(&r->ev, caps, &form))
		r->ev = form;
	return st;
}

/* Copies what fits (a report cell, cut rather than overflowed). */
static void set_text(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void skip(struct bt_check_result *res, const char *why)
{
	res->verdict = BT_VERDICT_SKIP;
	set_text(res->detail, sizeof(res->detail), why);
}

static void tolerance_text(const struct bt_vspec_entry *e, char *buf, size_t len)
{
	if (e->kind == BT_VEXP_RELATION)
		snprintf(buf, len, "+-%g %%", e->tolerance_pct);
	else if (e->tolerance_pct == 0 && e->warn_pct == 0)
		snprintf(buf, len, e->kind == BT_VEXP_EXACT ? "exact" : e->kind == BT_VEXP_LE ? "bound" : "range");
	else if (e->warn_pct > e->tolerance_pct)
		snprintf(buf, len, "+-%g %% (warn %g %%)", e->tolerance_pct, e->warn_pct);
	else
		snprintf(buf, len, "+-%g %%", e->tolerance_pct);
}

/* Measures events[0..n) over the kernel; the reason in why when it could not. */
static bt_status measure(const struct bt_pmu *pmu, const struct bt_event *const *events, int n,
		    const struct bt_kernel *k, struct bt_kernel_state *st, const struct bt_validate_opts *o,
		    struct bt_plan_scratch *scratch, struct bt_plan *plan, struct bt_measurement *m,
		    struct bt_diag *why)
{
	struct bt_plan_opts popts = { 0 };
	const struct bt_kernel *empty = bt_kernel_find("empty");

	memset(m, 0, sizeof(*m));
	if (bt_plan_events(events, n, &pmu->caps, &popts, scratch, plan) != BT_OK || plan->n_unplaced) {
		bt_diag_set(why, "the events could not be placed on this PMU's counters");
		return BT_ERR_FULL;
	}
	for (int i = 0; i < n; i++)
		if (plan->ev[i].place == BT_PLACE_UNMEASURABLE) {
			bt_diag_set(why, "%s: not countable on this PMU: %s", events[i]->name,
				    plan->ev[i].reason);
			return BT_ERR_UNSUPPORTED;
		}
	if (plan->n_groups > 1) {
		bt_diag_set(why, "the events need %d counter groups; a relation needs one",
			    plan->n_groups);
		return BT_ERR_FULL;
	}
	struct bt_measure_workload wl = { .run = k->run, .arg = st };
	struct bt_measure_opts mo;
	bt_measure_opts_defaults(&mo);
	mo.reps = o->reps ? o->reps : BT_MEASURE_REPS_DEFAULT;
	mo.warmups = o->warmups;
	mo.mask_interrupts = o->mask_interrupts;
	mo.calib_body = empty ? empty->run : NULL;
	bt_status mst = bt_measure(pmu, plan, events, &wl, &mo, m);
	if (mst != BT_OK) {
		bt_diag_set(why, "measurement failed: %.120s", m->error);
		bt_measurement_free(m);
		return mst;
	}
	return BT_OK;
}

/* The bounds of an exact or range expectation in *lo..*hi, its text in
 * res->expected; false (res says SKIP or FAIL, and why) when they cannot be
 * had. Relations get theirs from the measurement. */
static bool expected_bounds(const struct bt_vspec_entry *e, const struct bt_kernel *k, uint64_t n,
			    const struct bt_page_span *pages, double *lo, double *hi,
			    struct bt_check_result *res)
{
	struct bt_diag d = { "" };

	if (e->kind != BT_VEXP_EXACT && e->kind != BT_VEXP_RANGE)
		return true;
	bt_status s = bt_vexpr_eval_on(e->expr[0], k, n, pages, lo, &d);
	if (s == BT_OK && e->kind == BT_VEXP_RANGE)
		s = bt_vexpr_eval_on(e->expr[1], k, n, pages, hi, &d);
	else
		*hi = *lo;
	if (s == BT_ERR_UNSUPPORTED) {
		skip(res, d.text);
		return false;
	}
	if (s != BT_OK) {
		res->verdict = BT_VERDICT_FAIL;
		snprintf(res->detail, sizeof(res->detail), "the expectation: %.170s", d.text);
		return false;
	}
	if (e->kind == BT_VEXP_EXACT)
		snprintf(res->expected, sizeof(res->expected), "%.0f (%.60s)", *lo, e->expr[0]);
	else
		snprintf(res->expected, sizeof(res->expected), "%.0f..%.0f", *lo, *hi);
	return true;
}

static void check_one(const struct bt_pmu *pmu, const struct bt_vspec_entry *e,
		      const struct bt_validate_opts *o, struct bt_plan_scratch *scratch,
		      struct bt_plan *plan, struct bt_check_result *res)
{
	struct bt_diag why = { "" };
	struct resolved ev, of;
	const struct bt_kernel *k = bt_kernel_find(e->kernel);
	struct bt_diag d = { "" };

	snprintf(res->id, sizeof(res->id), "event:%.89s@%.31s", e->event, e->kernel);
	set_text(res->event, sizeof(res->event), e->event);
	set_text(res->kernel, sizeof(res->kernel), e->kernel);
	bt_vspec_expected_text(e, res->expected, sizeof(res->expected));
	tolerance_text(e, res->tolerance, sizeof(res->tolerance));
	if (!k) {
		skip(res, "no such kernel in this build");
		return;
	}
	uint64_t n = o->quick ? (e->n_quick ? e->n_quick : k->n_quick) : (e->n ? e->n : k->n_default);
	res->n = n;

	/* The expected bounds first: they need nothing from the PMU. A kernel
	 * with counts declared per page size (dtlb-walk) has them only once
	 * its buffer exists: after its setup, below. */
	double lo = 0, hi = 0;
	bool per_page = bt_kernel_count_per_page(k, NULL);
	if (!per_page && !expected_bounds(e, k, n, NULL, &lo, &hi, res))
		return;
	if (resolve_counted(e->event, &pmu->caps, o->model, &ev, &why) != BT_OK) {
		skip(res, why.text);
		return;
	}
	bool pair = e->kind == BT_VEXP_RELATION || e->kind == BT_VEXP_LE;
	if (pair && resolve_counted(e->of, &pmu->caps, o->model, &of, &why) != BT_OK) {
		char w2[200];
		snprintf(w2, sizeof(w2), "%.60s: %.130s", e->of, why.text);
		skip(res, w2);
		return;
	}

	struct bt_kernel_state st;
	memset(&st, 0, sizeof(st));
	if (bt_kernel_setup(k, n, &o->kcpu, &st, &d) != BT_OK) {
		bt_diag_set(&why, "kernel unsupported here: %.170s", d.text);
		skip(res, why.text);
		return;
	}
	if (per_page) {
		/* Which pages the expectation was taken for, and from where. */
		char sz[40];
		bt_page_span_sizes(&st.pages, sz, sizeof(sz));
		snprintf(res->pages, sizeof(res->pages), "%s (%.100s)", sz, st.pages.source);
		if (!expected_bounds(e, k, n, &st.pages, &lo, &hi, res)) {
			bt_kernel_teardown(k, &st);
			return;
		}
	}
	if (o->prepare)
		o->prepare(o->prepare_ctx, k, &st);

	const struct bt_event *evs[2] = { &ev.ev, &of.ev };
	struct bt_measurement m;
	bt_status mst = measure(pmu, evs, pair ? 2 : 1, k, &st, o, scratch, plan, &m, &why);
	bt_kernel_teardown(k, &st);
	if (mst != BT_OK) {
		skip(res, why.text);
		return;
	}
	const struct bt_measure_stat *a = &m.ev[0], *b = &m.ev[1];
	if (!a->measured || (pair && !b->measured)) {
		skip(res, "the measurement engine returned no count");
		bt_measurement_free(&m);
		return;
	}
	res->has_measured = true;
	res->median = a->median;
	res->min = a->min;
	res->max = a->max;
	res->overhead = a->overhead;
	res->runs = (unsigned)m.n_runs;
	if (pair) {
		/* The other event's median scales the bound; each run's spread
		 * of A is judged against it. */
		double ref = e->k * (double)b->median;
		lo = e->kind == BT_VEXP_LE ? 0 : ref;
		hi = ref;
		snprintf(res->expected, sizeof(res->expected), "%s %.0f (%g x %.40s)",
			 e->kind == BT_VEXP_LE ? "<=" : "=", ref, e->k, e->of);
	}
	res->verdict = bt_validate_judge((double)a->min, (double)a->max, lo, hi, e->tolerance_pct,
					 e->warn_pct);
	if (res->verdict != BT_VERDICT_PASS)
		snprintf(res->detail, sizeof(res->detail), "measured %llu..%llu outside %s",
			 (unsigned long long)a->min, (unsigned long long)a->max, res->tolerance);
	if (a->clamped) {
		size_t u = strlen(res->detail);
		snprintf(res->detail + u, sizeof(res->detail) - u, "%scounted less than the "
			 "calibration window in some run", u ? "; " : "");
	}
	if (e->plausibility) {
		size_t u = strlen(res->detail);
		snprintf(res->detail + u, sizeof(res->detail) - u, "%splausibility only%s%.80s",
			 u ? "; " : "", e->note[0] ? ": " : "", e->note);
	} else if (e->note[0] && res->verdict == BT_VERDICT_PASS && !res->detail[0]) {
		set_text(res->detail, sizeof(res->detail), e->note);
	}
	bt_measurement_free(&m);
}

bt_status bt_validate_run(const struct bt_pmu *pmu, const struct bt_vspec *spec,
			  const struct bt_validate_opts *o, struct bt_check_list *out,
			  struct bt_diag *d)
{
	/* Large (tens of KiB): heap, never a UEFI stack (pmu/plan.h). */
	struct bt_plan_scratch *scratch = malloc(sizeof(*scratch));
	struct bt_plan *plan = malloc(sizeof(*plan));
	bt_status st = BT_OK;

	if (!scratch || !plan) {
		free(scratch);
		free(plan);
		bt_diag_set(d, "out of memory");
		return BT_ERR_NOMEM;
	}
	for (int i = 0; i < spec->n && st == BT_OK; i++) {
		struct bt_check_result res;
		memset(&res, 0, sizeof(res));
		check_one(pmu, &spec->v[i], o, scratch, plan, &res);
		/* Ids are keys: a second check of the same event over the same
		 * kernel (a relation after an exact count) gets "#2", ... */
		int same = 1;
		for (int j = 0; j < out->n; j++)
			if (strncmp(out->v[j].id, res.id, strlen(res.id)) == 0 &&
			    (out->v[j].id[strlen(res.id)] == '\0' || out->v[j].id[strlen(res.id)] == '#'))
				same++;
		if (same > 1) {
			size_t u = strlen(res.id);
			if (u + 8 < sizeof(res.id))
				snprintf(res.id + u, sizeof(res.id) - u, "#%d", same);
		}
		if ((st = bt_check_list_add(out, &res)) != BT_OK)
			bt_diag_set(d, "out of memory");
	}
	free(scratch);
	free(plan);
	return st;
}

__attribute__((format(printf, 5, 6)))
static bt_status spec_error(struct bt_diag *d, const struct bt_vspec *spec,
			    const struct bt_vspec_entry *e, const char *field, const char *fmt, ...)
{
	char msg[BT_DIAG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bt_diag_set(d, "%s: checks[%d] (line %u): \"%s\": %s", spec->file, e->index,
		    (unsigned)e->line, field, msg);
	return BT_ERR_INVALID;
}

/* A model event name: found, or the spec's mistake with the nearest name. */
static bt_status check_event_name(const struct bt_vspec *spec, const struct bt_vspec_entry *e,
				  const char *field, const char *name,
				  const struct bt_model *model, struct bt_diag *d)
{
	if (looks_raw(name) || !model || bt_model_event_find(model, name) >= 0)
		return BT_OK;
	struct bt_near_name nn;
	char hint[200];

	bt_near_name_init(&nn, name);
	for (unsigned i = 0; i < bt_model_event_count(model); i++)
		bt_near_name_offer(&nn, bt_model_event(model, i)->name);
	return spec_error(d, spec, e, field, "'%s' is neither a raw event (cpu/event=..,umask=../, "
			  "rNNNN) nor an event of the model (names are as the vendor spells them)%s",
			  name, bt_near_name_hint(&nn, hint, sizeof(hint)));
}

/* An expected count: the names the kernel declares (k.NAME) and no
 * division by zero at the size it will run with. */
static bt_status check_expr(const struct bt_vspec *spec, const struct bt_vspec_entry *e,
			    const char *field, const char *text, const struct bt_kernel *k,
			    uint64_t n, struct bt_diag *d)
{
	struct bt_diag why = { "" };
	double v;
	bt_status st = bt_vexpr_eval(text, k, n, &v, &why);

	if (st == BT_OK)
		return BT_OK;
	if (st == BT_ERR_UNSUPPORTED && bt_kernel_count_per_page(k, NULL))
		return BT_OK; /* known only once its buffer's pages are: judged at run time */
	/* The nearest declared count to the first k.NAME the kernel lacks. */
	char hint[200] = "";
	const char *p = strstr(text, "k.");
	while (st == BT_ERR_UNSUPPORTED && p) {
		char name[64];
		size_t len = 0;
		int64_t c;
		for (p += 2; len + 1 < sizeof(name) && ((*p >= 'a' && *p <= 'z') ||
				(*p >= '0' && *p <= '9') || *p == '_' || (*p >= 'A' && *p <= 'Z')); p++)
			name[len++] = *p;
		name[len] = '\0';
		if (len && !bt_kernel_count(k, name, n, &c)) {
			struct bt_near_name nn;
			bt_near_name_init(&nn, name);
			for (int i = 0; i < BT_KERNEL_MAX_COUNTS && k->counts[i].name; i++)
				bt_near_name_offer(&nn, k->counts[i].name);
			if (nn.best)
				snprintf(hint, sizeof(hint), "; did you mean 'k.%s'?", nn.best);
			break;
		}
		p = strstr(p, "k.");
	}
	return spec_error(d, spec, e, field, "%s%s", why.text, hint);
}

/* A raw event no PMU can count (a field out of its range for Intel and for
 * AMD alike: cmask=300 in an 8-bit counter mask) is the spec's mistake,
 * not a SKIP; one that only this PMU's vendor refuses (an AMD-only field
 * on Intel) stays a SKIP at run time. */
static bt_status check_raw_event(const struct bt_vspec *spec, const struct bt_vspec_entry *e,
				 const char *field, const char *name, const struct bt_pmu_caps *caps,
				 struct bt_diag *d)
{
	struct bt_raw_event raw;
	struct bt_diag mine = { "" }, other = { "" };
	enum bt_vendor v = vendor_of(caps);

	if (!looks_raw(name) || bt_event_parse(name, v, &raw, &mine) == BT_OK ||
	    bt_event_parse(name, v == BT_VENDOR_INTEL ? BT_VENDOR_AMD : BT_VENDOR_INTEL, &raw, &other) == BT_OK)
		return BT_OK;
	return spec_error(d, spec, e, field, "'%s' is no event any PMU counts: %s", name, mine.text);
}

/* Both ends of a range at the size the entry runs with: a LOW above its
 * HIGH can never PASS, so it is the spec's mistake (a FAIL would blame
 * the PMU). Ends known only at run time (per page) are judged there. */
static bt_status check_range_order(const struct bt_vspec *spec, const struct bt_vspec_entry *e,
				   const struct bt_kernel *k, uint64_t n, const char *size_name,
				   struct bt_diag *d)
{
	struct bt_diag why = { "" };
	double lo, hi;
	if (bt_vexpr_eval(e->expr[0], k, n, &lo, &why) != BT_OK ||
	    bt_vexpr_eval(e->expr[1], k, n, &hi, &why) != BT_OK || lo <= hi)
		return BT_OK;
	return spec_error(d, spec, e, "expect.range", "LOW '%s' = %.17g is above HIGH '%s' = %.17g "
			  "at %s = %llu: no count is in that range (give [LOW, HIGH], LOW <= HIGH)",
			  e->expr[0], lo, e->expr[1], hi, size_name, (unsigned long long)n);
}

bt_status bt_validate_check_spec(const struct bt_pmu_caps *caps, const struct bt_vspec *spec,
				 const struct bt_validate_opts *o, struct bt_diag *d)
{
	for (int i = 0; i < spec->n; i++) {
		const struct bt_vspec_entry *e = &spec->v[i];
		const struct bt_kernel *k = bt_kernel_find(e->kernel);
		bt_status st;

		if (!e->line)
			continue;
		if (!k) {
			struct bt_near_name nn;
			char hint[200];
			bt_near_name_init(&nn, e->kernel);
			for (int j = 0; j < bt_n_kernels; j++)
				bt_near_name_offer(&nn, bt_kernels[j]->name);
			return spec_error(d, spec, e, "kernel", "no kernel '%s' in this build%s",
					  e->kernel, bt_near_name_hint(&nn, hint, sizeof(hint)));
		}
		/* Both sizes the entry can run at, whichever this run uses: a
		 * spec that works only with --quick is still wrong. */
		uint64_t sizes[2] = { e->n ? e->n : k->n_default, e->n_quick ? e->n_quick : k->n_quick };
		const char *size_field[2] = { "n", "n_quick" };
		for (int s = 0; s < 2; s++)
			if (sizes[s] < k->n_min || sizes[s] > k->n_max)
				return spec_error(d, spec, e, size_field[s], "kernel %s runs %s = %llu..%llu, "
						  "not %llu", k->name, k->n_means,
						  (unsigned long long)k->n_min,
						  (unsigned long long)k->n_max,
						  (unsigned long long)sizes[s]);
		uint64_t n = o->quick ? sizes[1] : sizes[0];
		if ((st = check_event_name(spec, e, "event", e->event, o->model, d)) != BT_OK ||
		    (st = check_raw_event(spec, e, "event", e->event, caps, d)) != BT_OK)
			return st;
		if (e->kind == BT_VEXP_RELATION || e->kind == BT_VEXP_LE) {
			const char *f = e->kind == BT_VEXP_LE ? "expect.le" : "expect.relation.of";
			if ((st = check_event_name(spec, e, f, e->of, o->model, d)) != BT_OK ||
			    (st = check_raw_event(spec, e, f, e->of, caps, d)) != BT_OK)
				return st;
			continue;
		}
		const char *f0 = e->kind == BT_VEXP_EXACT ? "expect.exact" : "expect.range[0]";
		if ((st = check_expr(spec, e, f0, e->expr[0], k, n, d)) != BT_OK)
			return st;
		if (e->kind == BT_VEXP_RANGE &&
		    (st = check_expr(spec, e, "expect.range[1]", e->expr[1], k, n, d)) != BT_OK)
			return st;
		for (int sz = 0; e->kind == BT_VEXP_RANGE && sz < 2; sz++)
			if ((st = check_range_order(spec, e, k, sizes[sz], size_field[sz], d)) != BT_OK)
				return st;
	}
	return BT_OK;
}

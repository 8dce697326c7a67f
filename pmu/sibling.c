/* SPDX-License-Identifier: MIT */
/*
 * The SMT sibling's activity from the probe's counts, and the reference
 * clock REF_XCLK is derived at (sibling.h).
 */
#include <math.h>

#include "pmu/measure.h"
#include "pmu/plan.h"
#include "pmu/sibling.h"

const struct bt_event bt_sibling_ota_event = {
	.name = "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", .source = BT_SRC_PMC, .code = 0x3C,
	.umask = 0x02, .fixed = BT_EV_NO_FIXED, .counters = 0xF,
};
const struct bt_event bt_sibling_xclk_event = {
	.name = "CPU_CLK_UNHALTED.REF_XCLK", .source = BT_SRC_PMC, .code = 0x3C, .umask = 0x01,
	.fixed = BT_EV_NO_FIXED, .counters = 0xF,
};

int bt_sibling_add_check(const struct bt_event **events, int n, const struct bt_pmu_caps *caps,
			 const struct bt_plan_opts *opts, struct bt_plan_scratch *scratch)
{
	int ota, xclk;

	if (n >= BT_PLAN_MAX_EVENTS || !bt_plan_sibling_gp(caps, &ota, &xclk) || xclk >= 0)
		return n;
	events[n] = &bt_sibling_xclk_event;
	if (!caps->tsc_per_xclk_num ||
	    bt_plan_lower_bound(events, n + 1, caps, opts, scratch, NULL) ==
	    bt_plan_lower_bound(events, n, caps, opts, scratch, NULL))
		return n + 1;
	return n;
}

void bt_sibling_add(struct bt_sibling_sums *s, const struct bt_measure_run *r)
{
	if (!r->has_sibling)
		return;
	s->probed = true;
	s->ota += r->one_thread_active;
	/* One clock for every run: where fixed counter 2 counted, REF_XCLK
	 * is derived from it also in the runs that counted REF_XCLK (those
	 * check the ratio). */
	if (r->has_ref_tsc)
		s->ref_tsc += r->ref_tsc;
	else if (r->has_xclk)
		s->xclk += r->ref_xclk;
	if (r->has_ref_tsc && r->has_xclk) {
		s->check_tsc += r->ref_tsc;
		s->check_xclk += r->ref_xclk;
		s->check_runs++;
	}
}

void bt_xclk_ratio_decide(const struct bt_pmu_caps *caps, const struct bt_sibling_sums *s,
			  struct bt_xclk_ratio *ret)
{
	struct bt_xclk_ratio x = { .used = NAN, .enumerated = NAN, .counted = NAN };

	if (caps->tsc_per_xclk_num && caps->tsc_per_xclk_den) {
		x.enumerated = (double)caps->tsc_per_xclk_num / (double)caps->tsc_per_xclk_den;
		x.enumerated_from = caps->tsc_per_xclk_from;
	}
	if (s->check_xclk && s->check_tsc)
		x.counted = (double)s->check_tsc / (double)s->check_xclk;
	if (!isnan(x.enumerated) && !isnan(x.counted)) {
		/* Each window's edges can cut one reference tick either way. */
		double tol = BT_XCLK_RATIO_TOLERANCE + (double)s->check_runs / (double)s->check_xclk;
		x.disagrees = fabs(x.counted / x.enumerated - 1) > tol;
	}
	if (!isnan(x.enumerated) && !x.disagrees) {
		x.used = x.enumerated;
		x.from = x.enumerated_from;
	} else if (!isnan(x.counted)) {
		x.used = x.counted;
		x.from = "counted";
	}
	*ret = x;
}

double bt_sibling_active(const struct bt_sibling_sums *s, double ratio)
{
	if (!s->probed || (s->ref_tsc && !(ratio > 0)))
		return NAN;
	return bt_sibling_fraction((double)s->ota,
				   (double)s->xclk + (s->ref_tsc ? (double)s->ref_tsc / ratio : 0));
}

double bt_sibling_fraction(double ota, double xclk)
{
	if (!(xclk > 0) || isnan(ota))
		return NAN;
	if (ota >= xclk)
		return 0;
	return 1.0 - ota / xclk;
}

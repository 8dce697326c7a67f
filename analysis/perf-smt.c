/* SPDX-License-Identifier: MIT */
/* Which formulas a perf stat file's tree takes (perf-smt.h). */
#include "analysis/perf-smt.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/event.h"
#include "pmu/sibling.h"

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
			return false;
	return !*a && !*b;
}

/* Intel's event tables: event 3CH, umask 02H and 01H, counted without
 * AnyThread, in every ring. */
int bt_perf_sibling_row(const struct bt_perf_match *pm, const char *ev)
{
	if (same_name(ev, "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE"))
		return 0;
	if (same_name(ev, "CPU_CLK_UNHALTED.REF_XCLK"))
		return 1;
	if (!pm || !pm->parse || !(strchr(ev, '/') || ev[0] == 'r'))
		return -1;
	struct bt_event e;
	struct bt_diag d = { "" };
	if (pm->parse(ev, false, &e, &d) != BT_OK || e.source != BT_SRC_PMC || e.code != 0x3C ||
	    e.cmask || e.flags || e.umask_ext || e.msr_index)
		return -1;
	return e.umask == 0x02 ? 0 : e.umask == 0x01 ? 1 : -1;
}

double bt_perf_sibling_active(const struct bt_perf_stat *f, const struct bt_perf_match *pm,
			      const double *only, double *ret_ota, double *ret_xclk)
{
	double v[2] = { NAN, NAN };

	for (size_t r = 0; r < f->n; r++) {
		const struct bt_perf_stat_row *row = &f->rows[r];
		if (only && row->interval != *only)
			continue;
		int k = bt_perf_sibling_row(pm, row->event);
		if (k >= 0)
			v[k] = row->state == BT_PERF_COUNTED ? row->value : NAN;
	}
	if (ret_ota)
		*ret_ota = v[0];
	if (ret_xclk)
		*ret_xclk = v[1];
	if (isnan(v[0]) || isnan(v[1]) || v[0] < 0 || v[1] < 0)
		return NAN;
	return bt_sibling_fraction(v[0], v[1]);
}

int bt_perf_smt_inferred(const struct bt_counts *c, char *why, size_t len)
{
	const struct bt_model *m = c->model;
	const char *any = NULL, *counted = NULL;
	for (unsigned i = 0; i < bt_model_event_count(m); i++) {
		const struct bt_event *e = bt_model_event(m, i);
		if (!(e->flags & BT_EVF_ANY))
			continue;
		if (!any)
			any = e->name;
		if (!isnan(c->events[i]) && !counted)
			counted = e->name;
	}
	if (counted) {
		snprintf(why, len, "SMT on: perf counted %s (AnyThread), which only the SMT-on formulas use",
			 counted);
		return 1;
	}
	if (any) {
		snprintf(why, len, "SMT off: no AnyThread event (such as %s) in the file, so perf ran the "
			 "per-thread formulas", any);
		return 0;
	}
	snprintf(why, len, "SMT not inferred: model %s has no AnyThread event", bt_model_def(m)->id);
	return -1;
}

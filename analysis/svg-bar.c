/* SPDX-License-Identifier: MIT */
/* The geometry of a stacked bar: svg-bar.h. */
#include <math.h>

#include "analysis/svg-bar.h"

static double usable(double v)
{
	return isnan(v) || v < 0 ? 0 : v;
}

double bt_bar_layout(const double *values, int n, double start, double len, struct bt_bar_seg *seg)
{
	double total = 0, acc = 0;
	for (int i = 0; i < n; i++)
		total += usable(values[i]);
	int last = -1;
	for (int i = 0; i < n; i++)
		if (usable(values[i]) > 0)
			last = i;
	double pos = start;
	for (int i = 0; i < n; i++) {
		double v = total > 0 ? usable(values[i]) : 0;
		acc += v;
		/* each end from the running sum, the last one pinned: no drift */
		double end = i >= last ? start + (total > 0 ? len : 0) : start + len * (acc / total);
		seg[i].start = pos;
		seg[i].len = end - pos;
		seg[i].share = total > 0 ? v / total : 0;
		pos = end;
	}
	return total;
}

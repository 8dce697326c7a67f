/* SPDX-License-Identifier: MIT */
#include "pmu/run-freq.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sorts v; the mean of the two middle values for an even n. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bt_run_freq(const struct bt_measure_run *runs, int n, uint64_t tsc_hz,
		 struct bt_run_freq *ret)
{
	struct bt_run_freq f = { 0, NAN, NAN, NAN, NAN, NAN };
	double *ratio = n > 0 ? malloc((size_t)n * sizeof(*ratio)) : NULL;
	double *c0 = n > 0 ? malloc((size_t)n * sizeof(*c0)) : NULL;
	int nc0 = 0;

	if (ratio && c0) {
		for (int k = 0; k < n; k++) {
			const struct bt_measure_run *r = &runs[k];
			if (!r->has_aperf_mperf || r->mperf == 0)
				continue;
			ratio[f.n_runs++] = (double)r->aperf / (double)r->mperf;
			if (r->tsc)
				c0[nc0++] = (double)r->mperf / (double)r->tsc;
		}
	}
	if (f.n_runs) {
		f.ratio_median = median(ratio, f.n_runs);
		f.ratio_min = ratio[0];
		f.ratio_max = ratio[f.n_runs - 1];
		if (tsc_hz)
			f.hz_median = (double)tsc_hz * f.ratio_median;
	}
	if (nc0)
		f.c0_median = median(c0, nc0);
	free(ratio);
	free(c0);
	*ret = f;
}

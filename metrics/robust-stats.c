/* SPDX-License-Identifier: MIT */
/* Median, MAD and the outlier rule: see robust-stats.h for the reasoning. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/robust-stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bt_median_inplace(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	/* even n: the mean of the two middle values (the usual convention) */
	return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

double bt_median(const double *v, size_t n, double *tmp)
{
	if (n)
		memcpy(tmp, v, n * sizeof(*v));
	return bt_median_inplace(tmp, n);
}

double bt_mad(const double *v, size_t n, double med, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - med);
	return bt_median_inplace(tmp, n);
}

struct bt_robust bt_robust_of(const double *v, size_t n, double *tmp)
{
	struct bt_robust r = { n, NAN, NAN, NAN, 0 };
	if (n == 0)
		return r;
	r.median = bt_median(v, n, tmp);
	r.mad = bt_mad(v, n, r.median, tmp);
	r.scale = r.mad;
	if (r.mad == 0) {
		double sum = 0;
		for (size_t i = 0; i < n; i++)
			sum += fabs(v[i] - r.median);
		r.scale = BT_MEANAD_TO_MAD * (sum / (double)n);
		r.scale_is_meanad = 1;
	}
	return r;
}

double bt_robust_distance(const struct bt_robust *r, double x)
{
	double d = x - r->median;
	if (d == 0 || isnan(d))
		return d == 0 ? 0 : NAN;
	if (r->scale > 0)
		return d / r->scale;
	return d > 0 ? HUGE_VAL : -HUGE_VAL;
}

int bt_robust_stands_out(const struct bt_robust *r, double x, double k)
{
	if (r->n == 0 || isnan(x) || isnan(r->median))
		return 0;
	return fabs(bt_robust_distance(r, x)) > k;
}

int bt_robust_group_stands_out(const struct bt_robust *fleet, double group_median, size_t n, double k)
{
	if (n < 2 || fleet->n == 0 || isnan(group_median) || isnan(fleet->median))
		return 0;
	double d = fabs(group_median - fleet->median);
	if (!(fleet->scale > 0))
		return d > 0;
	double z = d / (1.4826 * fleet->scale) * sqrt((double)n) / 1.2533;
	return z > 0.6745 * k;
}

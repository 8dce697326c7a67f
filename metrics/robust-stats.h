/* SPDX-License-Identifier: MIT */
/*
 * Robust statistics for comparing machines of a fleet (`baretop-host fleet`):
 * the median, the median absolute deviation (MAD) and the rule that says a
 * value stands out. Means and standard deviations are not used because the
 * one machine we are looking for would drag them towards itself; the median
 * and the MAD are unmoved by a minority of outliers (breakdown point 50 %).
 *
 * The outlier rule: x stands out when |x - median| > k * scale, where scale
 * is the MAD (the raw MAD, not scaled by 1.4826). For normally distributed
 * noise the MAD is 0.6745 sigma. Iglewicz and Hoaglin's modified z-score
 * limit of 3.5 (0.6745 * |x - median| / MAD > 3.5) is 5.19 MADs = 3.5
 * sigma: right for one test, but a fleet summary makes one test per
 * machine, workload and node (50 machines x 40 nodes = 2,000), and at 3.5
 * sigma normal noise alone would flag about one ordinary machine per
 * summary. The default k = 7 MADs = 4.7 sigma (two-sided tail 2.6e-6, about
 * 0.005 false flags in 2,000 tests) keeps ordinary machines quiet; a
 * machine that is really different (a 40 % longer DRAM stall lands 15-40
 * MADs out) still stands far beyond it.
 *
 * When more than half the values are equal the MAD is 0 and any difference
 * would stand out. Then the scale is the mean absolute deviation from the
 * median times 0.8453 (= 0.6745 / 0.7979: for normal data the MAD is
 * 0.6745 sigma and the mean absolute deviation 0.7979 sigma, so the product
 * is on the MAD's scale). When that is 0 too, every value equals the
 * median and nothing stands out.
 */
#ifndef METRICS_ROBUST_STATS_H
#define METRICS_ROBUST_STATS_H

#include <stddef.h>

#define BT_OUTLIER_K_DEFAULT 7.0
#define BT_MEANAD_TO_MAD 0.8453

/* The median of v[0..n): sorts v in place. NaN for n == 0. NaNs in v are
 * the caller's to leave out. */
double bt_median_inplace(double *v, size_t n);

/* The median of v[0..n) (v unchanged; tmp has room for n values). */
double bt_median(const double *v, size_t n, double *tmp);

/* The median absolute deviation from med: median of |v[i] - med|. */
double bt_mad(const double *v, size_t n, double med, double *tmp);

struct bt_robust {
	size_t n;
	double median;
	double mad;        /* the median absolute deviation */
	double scale;      /* mad, or 0.8453 * the mean absolute deviation when mad is 0 */
	int scale_is_meanad; /* 1 when the MAD was 0 and the fallback is used */
};

/* Median, MAD and scale of v[0..n) (tmp has room for n values). */
struct bt_robust bt_robust_of(const double *v, size_t n, double *tmp);

/* (x - median) / scale: how many MADs x lies from the median, signed.
 * 0 when x equals the median; +-INFINITY never happens (scale 0 means all
 * values are equal, and then this is 0 for those values and, for a value
 * not in the set, +-HUGE_VAL is returned). */
double bt_robust_distance(const struct bt_robust *r, double x);

/* 1 when x stands out: |x - median| > k * scale, and scale > 0 or x differs
 * from every value (all equal). */
int bt_robust_stands_out(const struct bt_robust *r, double x, double k);

/* 1 when the median of a group of n values drawn from the fleet (n >= 2)
 * stands out from the fleet's median, as a group: the median of n values
 * varies less than one value (its standard error is 1.2533 sigma / sqrt(n)
 * for normal data), so a shift too small to single out any one machine can
 * still be beyond chance for the group. The limit is the machine rule's
 * own, in sigma: z = shift / (1.4826 * scale) * sqrt(n) / 1.2533 > 0.6745 k
 * (k = 7: 4.7 sigma). For 9 machines that is a shift of 2.9 MADs. */
int bt_robust_group_stands_out(const struct bt_robust *fleet, double group_median, size_t n, double k);

#endif

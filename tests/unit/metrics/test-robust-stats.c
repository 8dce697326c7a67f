/* SPDX-License-Identifier: MIT */
/*
 * The fleet's robust statistics (metrics/robust-stats.h), against values
 * worked out by hand from the definitions (median: middle of the sorted
 * values, mean of the two middle ones for an even count; MAD: median of the
 * absolute deviations from the median).
 */
#include "metrics/robust-stats.h"
#include "tests/unit/lib/test.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) <= 1e-12 * (fabs((double)(b)) + 1))

TEST(median_odd_even_and_empty)
{
	double tmp[8];
	double odd[] = { 5, 1, 3 };                 /* sorted 1 3 5 */
	double even[] = { 4, 1, 3, 2 };             /* sorted 1 2 3 4 -> 2.5 */
	CHECK(NEAR(bt_median(odd, 3, tmp), 3));
	CHECK(NEAR(bt_median(even, 4, tmp), 2.5));
	CHECK(isnan(bt_median(odd, 0, tmp)));
	double one[] = { -7 };
	CHECK(NEAR(bt_median(one, 1, tmp), -7));
	CHECK(odd[0] == 5 && even[0] == 4);         /* inputs untouched */
}

TEST(median_ignores_one_wild_value)
{
	double tmp[8];
	double v[] = { 10, 11, 12, 13, 1e9 };
	CHECK(NEAR(bt_median(v, 5, tmp), 12));
}

TEST(mad_by_hand)
{
	double tmp[8];
	/* median 2; |dev| = 1 1 0 0 2 4 7 -> sorted 0 0 1 1 2 4 7 -> MAD 1 */
	double v[] = { 1, 1, 2, 2, 4, 6, 9 };
	struct bt_robust r = bt_robust_of(v, 7, tmp);
	CHECK(NEAR(r.median, 2));
	CHECK(NEAR(r.mad, 1));
	CHECK(NEAR(r.scale, 1));
	CHECK(!r.scale_is_meanad);
	/* 9 is 7 MADs above: out at k = 5, in at k = 7 (strictly greater) */
	CHECK(bt_robust_stands_out(&r, 9, 5));
	CHECK(!bt_robust_stands_out(&r, 9, 7));
	CHECK(NEAR(bt_robust_distance(&r, 9), 7));
	CHECK(NEAR(bt_robust_distance(&r, -1), -3));
}

TEST(outlier_rule_is_symmetric_and_strict)
{
	double tmp[16];
	double v[] = { 100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 160, 40 };
	/* sorted: 40 98 99 99 100 100 100 100 101 101 102 160 -> median 100;
	 * |dev| sorted: 0 0 0 0 1 1 1 1 2 2 60 60 -> MAD (1 + 1) / 2 = 1 */
	struct bt_robust r = bt_robust_of(v, 12, tmp);
	CHECK(NEAR(r.median, 100) && NEAR(r.mad, 1));
	int flagged = 0;
	for (int i = 0; i < 12; i++)
		flagged += bt_robust_stands_out(&r, v[i], BT_OUTLIER_K_DEFAULT);
	CHECK_EQ_INT(flagged, 2);   /* 160 and 40, nothing else */
	CHECK(!bt_robust_stands_out(&r, 105, 5));   /* exactly k MADs: not out */
	CHECK(bt_robust_stands_out(&r, 105.001, 5));
	CHECK(bt_robust_stands_out(&r, 94.999, 5));
}

TEST(mad_zero_falls_back_to_mean_absolute_deviation)
{
	double tmp[16];
	/* 9 zeros and one 0.05: median 0, MAD 0; mean abs dev 0.005;
	 * scale 0.8453 * 0.005 = 0.0042265; 0.05 is 11.83 scales out */
	double v[10] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.05 };
	struct bt_robust r = bt_robust_of(v, 10, tmp);
	CHECK(r.mad == 0 && r.scale_is_meanad);
	CHECK(NEAR(r.scale, 0.8453 * 0.005));
	CHECK(NEAR(bt_robust_distance(&r, 0.05), 0.05 / (0.8453 * 0.005)));
	CHECK(bt_robust_stands_out(&r, 0.05, 5));
	CHECK(!bt_robust_stands_out(&r, 0, 5));
	/* a fleet whose values vary a little once: 0.01 is 2.37 scales out, not flagged */
	v[9] = 0.01;
	r = bt_robust_of(v, 10, tmp);
	CHECK(!bt_robust_stands_out(&r, 0.001, 5));
}

TEST(all_equal_nothing_stands_out_but_a_stranger_does)
{
	double tmp[8];
	double v[] = { 0.25, 0.25, 0.25, 0.25 };
	struct bt_robust r = bt_robust_of(v, 4, tmp);
	CHECK(r.mad == 0 && r.scale == 0);
	CHECK(!bt_robust_stands_out(&r, 0.25, 5));
	CHECK(bt_robust_distance(&r, 0.25) == 0);
	CHECK(bt_robust_stands_out(&r, 0.3, 5));     /* not one of them: differs from all */
	CHECK(isinf(bt_robust_distance(&r, 0.2)) && bt_robust_distance(&r, 0.2) < 0);
}

TEST(empty_and_nan)
{
	double tmp[3];
	struct bt_robust r = bt_robust_of(NULL, 0, tmp);
	CHECK(r.n == 0 && isnan(r.median));
	CHECK(!bt_robust_stands_out(&r, 1, 5));
	double v[] = { 1, 2, 3 };
	r = bt_robust_of(v, 3, tmp);
	CHECK(!bt_robust_stands_out(&r, NAN, 5));
}

TEST(group_rule_by_hand)
{
	/* fleet MAD 1 (sigma 1.4826); a group of 9: z = shift / 1.4826 * 3 / 1.2533;
	 * limit 0.6745 * 7 = 4.7215. shift 3: z = 4.843, out; shift 2.8: z = 4.520, not. */
	double tmp[16];
	double v[] = { 100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 160, 40 };
	struct bt_robust r = bt_robust_of(v, 12, tmp);
	CHECK(NEAR(r.mad, 1));
	CHECK(bt_robust_group_stands_out(&r, 103, 9, 7));
	CHECK(bt_robust_group_stands_out(&r, 97, 9, 7));
	CHECK(!bt_robust_group_stands_out(&r, 102.8, 9, 7));
	/* the same shift in a group of 1 is a machine, not a group */
	CHECK(!bt_robust_group_stands_out(&r, 103, 1, 7));
	/* and a single machine 3 MADs out does not stand out on its own */
	CHECK(!bt_robust_stands_out(&r, 103, 7));
}

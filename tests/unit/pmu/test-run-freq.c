/* SPDX-License-Identifier: MIT */
/*
 * Effective frequency from APERF/MPERF: TSC Hz x dAPERF/dMPERF, C0
 * residency dMPERF/dTSC (pmu/run-freq.h). Expected values are worked out
 * by hand in the comments.
 */
#include <math.h>

#include "pmu/run-freq.h"
#include "tests/unit/lib/test.h"

static struct bt_measure_run run(uint64_t aperf, uint64_t mperf, uint64_t tsc)
{
	struct bt_measure_run r = { .has_aperf_mperf = true, .aperf = aperf, .mperf = mperf,
				    .tsc = tsc };
	return r;
}

TEST(turbo_and_c0)
{
	/* 3 runs at ratios 1.25, 1.20, 1.30 (median 1.25) on a 2.0 GHz TSC:
	 * 2.5 GHz. */
	struct bt_measure_run r[3] = { run(1250, 1000, 1010), run(1200, 1000, 1000),
				       run(1300, 1000, 1020) };
	/* MPERF/TSC: 1000/1010 = 0.990099, 1.0, 1000/1020 = 0.980392 */
	struct bt_run_freq f;
	bt_run_freq(r, 3, 2000000000ull, &f);
	CHECK_EQ_INT(f.n_runs, 3);
	CHECK_NEAR(f.ratio_median, 1.25, 1e-12, 0);
	CHECK_NEAR(f.ratio_min, 1.20, 1e-12, 0);
	CHECK_NEAR(f.ratio_max, 1.30, 1e-12, 0);
	CHECK_NEAR(f.hz_median, 2.5e9, 1e-12, 0);
	CHECK_NEAR(f.c0_median, 1000.0 / 1010.0, 1e-12, 0);
}

TEST(even_count_takes_the_mean_of_the_middle_two)
{
	/* ratios 0.5, 0.8, 0.9, 1.0: median (0.8 + 0.9) / 2 = 0.85 */
	struct bt_measure_run r[4] = { run(900, 1000, 1000), run(500, 1000, 1000),
				       run(1000, 1000, 1000), run(800, 1000, 1000) };
	struct bt_run_freq f;
	bt_run_freq(r, 4, 1000000000ull, &f);
	CHECK_NEAR(f.ratio_median, 0.85, 1e-12, 0);
	CHECK_NEAR(f.hz_median, 0.85e9, 1e-12, 0);
}

TEST(runs_without_the_msrs_are_left_out)
{
	/* A run without APERF/MPERF and one with dMPERF = 0 (never in C0: no
	 * ratio) do not count; without a TSC frequency there is no Hz. */
	struct bt_measure_run r[3] = { run(700, 1000, 0), run(5, 0, 1000), run(0, 0, 0) };
	r[2].has_aperf_mperf = false;
	struct bt_run_freq f;
	bt_run_freq(r, 3, 0, &f);
	CHECK_EQ_INT(f.n_runs, 1);
	CHECK_NEAR(f.ratio_median, 0.7, 1e-12, 0);
	CHECK(isnan(f.hz_median));
	CHECK(isnan(f.c0_median)); /* the only ratio run had dTSC = 0 */

	bt_run_freq(r + 1, 2, 1000, &f);
	CHECK_EQ_INT(f.n_runs, 0);
	CHECK(isnan(f.ratio_median) && isnan(f.hz_median));
}

/* SPDX-License-Identifier: MIT */
/*
 * Two results documents compared node by node (`baretop-host diff A B`,
 * `report --diff A B`): per counted workload present in both (matched by
 * label, report-view.h) and per tree node, the two values, B - A, and
 * whether the difference is beyond the run-to-run spread.
 *
 * The test (bt_diff_classify): a difference is beyond the spread when
 * A's value lies outside B's spread [lo, hi] AND B's value lies outside
 * A's spread, the spreads derived as report-view.h says (each event at its
 * min and max over the runs). Values equal to within 1e-12 (relative) are
 * "same"; where a spread could not be derived (a model from vendor files)
 * a difference is "not judged". Rows are sorted by |B - A|, largest first.
 */
#ifndef ANALYSIS_RESULTS_DIFF_H
#define ANALYSIS_RESULTS_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/status.h"
#include "analysis/report-view.h"

enum bt_diff_class {
	BT_DIFF_SAME,        /* equal values */
	BT_DIFF_WITHIN,      /* differ, but within the run-to-run spread */
	BT_DIFF_BEYOND,      /* each value outside the other's spread */
	BT_DIFF_UNJUDGED,    /* differ; no spread to judge by */
	BT_DIFF_ONLY_A,      /* a value in A only (not measured or not computable in B) */
	BT_DIFF_ONLY_B,
	BT_DIFF_NEITHER,     /* no value in either */
};
const char *bt_diff_class_name(enum bt_diff_class c); /* "beyond spread", ... */

enum bt_diff_class bt_diff_classify(double a, double a_lo, double a_hi, double b, double b_lo,
				    double b_hi, bool spread_known);

struct bt_diff_row {
	const char *workload, *node;
	unsigned level;
	size_t order;             /* tree order within the workload */
	enum bt_l1_category category;
	double a, a_lo, a_hi, b, b_lo, b_hi;
	double delta;             /* b - a; NaN unless both have a value */
	enum bt_diff_class cls;
	const char *a_why, *b_why; /* a side not measured for want of a retire latency:
				    * "not measured (no retire latency: EVENT:R ...)";
				    * else NULL */
};

/* Each compared workload's bottleneck path in A and in B ("X > Y", "" for
 * none), and whether it was taken by the largest share (the vendor defines
 * no thresholds) rather than through flagged nodes. */
struct bt_diff_path {
	const char *workload;
	const char *a, *b;
	bool a_share, b_share;
};

struct bt_diff {
	const char *path_a, *path_b;
	struct bt_diff_path *paths;   /* one per compared workload */
	size_t n_paths;
	struct bt_diff_row *rows;  /* sorted: |delta| largest first, then by workload and tree order */
	size_t n_rows;
	size_t n_class[BT_DIFF_NEITHER + 1];
	const char **only_a, **only_b; /* workload labels counted in one document only */
	size_t n_only_a, n_only_b;
	size_t n_workloads;        /* compared */
};

/* Compares the views of A (va[0..na)) with those of B. */
bt_status bt_diff_build(struct bt_arena *a, const struct bt_view *va, size_t na, const struct bt_view *vb,
			size_t nb, struct bt_diff *out);

#endif

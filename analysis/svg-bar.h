/* SPDX-License-Identifier: MIT */
/*
 * The geometry of a stacked bar (the level-1 bar and the CPI stack of the
 * HTML report): values become segments that tile the bar exactly, in
 * proportion to their share of the total.
 */
#ifndef ANALYSIS_SVG_BAR_H
#define ANALYSIS_SVG_BAR_H

struct bt_bar_seg {
	double start, len;   /* along the bar */
	double share;        /* of the total, 0..1 */
};

/*
 * Lays n values out on [start, start + len]: a negative or NaN value counts
 * as 0. Segment i begins where segment i-1 ends, and the last one ends at
 * start + len exactly, so the lengths sum to len (the shares to 1) whenever
 * the total is above 0. Returns the total (0: every segment is empty).
 */
double bt_bar_layout(const double *values, int n, double start, double len, struct bt_bar_seg *seg);

#endif

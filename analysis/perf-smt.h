/* SPDX-License-Identifier: MIT */
/*
 * Which formulas a tree of a `perf stat` file takes on a part whose
 * Top-Down formulas have SMT branches (metrics/model.h HYPERTHREADING_ON):
 * from the SMT sibling the file measured, as a baretop run decides it, or
 * else from the events perf counted for its own formulas.
 */
#ifndef ANALYSIS_PERF_SMT_H
#define ANALYSIS_PERF_SMT_H

#include <stddef.h>

#include "analysis/perf-stat.h"
#include "metrics/model.h"

/*
 * The SMT sibling a file measured: counted rows of
 * CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE and CPU_CLK_UNHALTED.REF_XCLK (names
 * in either case, or their encodings 3CH/02H and 3CH/01H without a
 * modifier), the two a baretop run's SMT sibling probe measures
 * (pmu/sibling.h: ONE_THREAD_ACTIVE counted in every group, REF_XCLK
 * mostly derived from fixed counter 2; `export --perf-json` writes their
 * totals) and perf's per-thread SMT formulas read
 * (tma_info_core_core_clks). Rows of the interval *only (NULL: every row).
 * Returns the fraction of this thread's unhalted time the sibling was
 * active (pmu/sibling.h bt_sibling_fraction, as a run computes it), NaN
 * when either row is absent or not counted or REF_XCLK is 0; the counts in
 * *ret_ota and *ret_xclk (may be NULL).
 */
double bt_perf_sibling_active(const struct bt_perf_stat *f, const struct bt_perf_match *pm,
			      const double *only, double *ret_ota, double *ret_xclk);
/* Which of the two a perf event string names: 0 ONE_THREAD_ACTIVE, 1
 * REF_XCLK, -1 neither. */
int bt_perf_sibling_row(const struct bt_perf_match *pm, const char *perf_event);

/*
 * Which formulas perf ran, from the events it counted: Intel cores before
 * perfmon v5 compute per-core slots and cycles from AnyThread events
 * (CPU_CLK_UNHALTED.THREAD_ANY, ...) when SMT is on, and from per-thread
 * events when it is off (perf's TopdownL1 asks for the events of the
 * formulas it runs). Returns 1 (an AnyThread event of the model was
 * counted: SMT on), 0 (the model has AnyThread events, none counted: SMT
 * off) or -1 (the model has no AnyThread events: nothing to infer), with
 * the reason in why. A file that measured the sibling decides by it
 * instead (bt_perf_sibling_active): a baretop run counts both branches'
 * events, AnyThread ones included, on one thread.
 */
int bt_perf_smt_inferred(const struct bt_counts *c, char *why, size_t len);

#endif

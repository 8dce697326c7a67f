/* SPDX-License-Identifier: MIT */
/*
 * Writing the consistency verdicts of an evaluated tree (metrics/rules.h):
 * a short section under the tree for people, a "consistency" array for
 * programs. A violated rule is a finding, shown in full and never clipped:
 * on a measured or simulated tree it says that some event does not count
 * the way the model's formulas assume.
 */
#ifndef REPORT_CONSISTENCY_H
#define REPORT_CONSISTENCY_H

#include <stdio.h>

#include "base/json-write.h"
#include "metrics/rules.h"

/*
 *   <indent>consistency: N rules held, N violated, N not applicable (an input not measured)
 *   <indent>  finding: an event does not count as the formula assumes: RULE off by X (LHS against RHS, tolerance T); events involved: A, B, ...
 * (one line per violated rule; with all_rules, every rule and its verdict)
 */
void bt_report_consistency_text(FILE *f, const struct bt_consistency *cs, const struct bt_result *r,
				const char *indent, int all_rules);
/*
 * [{"rule": "Frontend_Bound = Fetch_Latency + Fetch_Bandwidth", "kind": "parent_sum",
 *   "state": "held"|"violated"|"not_applicable", "lhs", "rhs", "difference",
 *   "tolerance", "events": [...]}, ...] as the value of key (NULL: an array element)
 */
void bt_report_consistency_json(struct bt_jw *j, const char *key, const struct bt_consistency *cs,
				const struct bt_result *r);

#endif

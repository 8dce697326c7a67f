/* SPDX-License-Identifier: MIT */
/*
 * What the host-side report (`baretop-host report`, `diff`) shows of one
 * counted workload of a results document (results-read.h): its tree nodes
 * in tree order with value, flag, bottleneck path, CPI share and a spread,
 * and the CPI. The renderers (report-html.c, report-text.c, report-csv.c)
 * and the diff (results-diff.c) read this, never the JSON layout.
 *
 * A node's spread: the results file keeps each event's min, median and max
 * over the runs, not per-run counts of every event, so a node's spread is
 * derived by evaluating the model again (built-in models only) one event at
 * a time: each event at its min and at its max, the others at their
 * medians; the node's spread [lo, hi] is the range of those values and of
 * its reported value. A formula of one event gets exactly that event's
 * range; a ratio of two events that vary together gets a wider range than
 * the runs really gave (never a narrower one for a single varying event).
 */
#ifndef ANALYSIS_REPORT_VIEW_H
#define ANALYSIS_REPORT_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/status.h"
#include "analysis/results-read.h"

/* The four level-1 categories, in the order of the stacked bar. */
enum bt_l1_category {
	BT_L1_FRONTEND,
	BT_L1_BAD_SPECULATION,
	BT_L1_BACKEND,
	BT_L1_RETIRING,
	BT_L1_COUNT,
	BT_L1_OTHER = BT_L1_COUNT,
};
/* By name, any case ("Frontend_Bound", "frontend_bound"). */
enum bt_l1_category bt_l1_category_of(const char *name);
const char *bt_l1_category_label(enum bt_l1_category c); /* "Frontend Bound" */

struct bt_view_node {
	const char *name, *parent;
	unsigned level;
	double value;             /* fraction; NaN = not computed (not measured, missing, invalid) */
	const char *state;        /* "ok", "missing", "invalid", "not_measured", ... as the file says */
	const struct bt_json *rl_not_measured; /* "not_measured": the retire latencies it lacks */
	bool flag;                /* vendor threshold */
	bool on_path;             /* on the bottleneck path */
	/* --bring-up: the event its formula reads that did not pass
	 * validation and that check (the node's "untrusted"); NULL: trusted */
	const char *untrusted_event, *untrusted_check;
	const char *untrusted_verdict; /* "FAIL", "SKIP", "CROSS" (report/tree.h) */
	double cpi_share;         /* NaN when none */
	const char *latency;      /* what its value rests on (the node's "latency"), or NULL */
	double lo, hi;            /* spread (see above); lo = hi = value when unknown */
	enum bt_l1_category category; /* of its level-1 ancestor */
	bool listed;              /* shown: see bt_page_listed() */
};

struct bt_view {
	const struct bt_results_doc *doc;
	const struct bt_results_workload *w;
	struct bt_view_node *nodes; /* tree nodes, depth first in the file's order */
	size_t n_nodes;
	double cpi;               /* NaN when unknown */
	bool spread_known;
	bool path_largest_share;  /* the path follows the largest share: the vendor defines
				   * no thresholds (tree "bottleneck_path_rule") */
	const char *spread_note;  /* why it is not known, or how it was derived */
};

/* Builds the view of a counted workload (w->counted != NULL). */
bt_status bt_view_build(struct bt_arena *a, const struct bt_results_doc *doc,
			const struct bt_results_workload *w, struct bt_view *v, struct bt_diag *d);
/* The node of that name, or NULL. */
const struct bt_view_node *bt_view_find(const struct bt_view *v, const char *name);

#endif

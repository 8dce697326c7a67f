/* SPDX-License-Identifier: MIT */
/*
 * The host-side report of results documents (`baretop-host report`, `diff`)
 * in three formats with the same content: text for the terminal, CSV for
 * spreadsheets (one table, a "section" column says which part a row is),
 * and one self-contained HTML page with inline SVG charts (no script, no
 * font, no image, no network: a Content-Security-Policy of
 * default-src 'none' blocks anything the page might fetch).
 *
 * Per counted workload: provenance (measured / SIMULATED, model and TMA
 * version), the level-1 split, the tree with values, flags and the
 * bottleneck path, the CPI stack, the per-event spread over the runs, the
 * run checks (instruction agreement, retries, SMIs, consistency rules) and
 * the plan (steps, groups, counters). Several documents add a workload x
 * node table; a diff (results-diff.h) adds its rows.
 */
#ifndef ANALYSIS_PAGE_H
#define ANALYSIS_PAGE_H

#include <stddef.h>

#include "base/strbuf.h"
#include "analysis/report-view.h"
#include "analysis/results-diff.h"

struct bt_page {
	const struct bt_results_doc *docs;
	size_t n_docs;
	const struct bt_view *views;  /* every counted workload of every document, in order */
	size_t n_views;
	const struct bt_diff *diff;   /* NULL: no diff section */
	int diff_only;                /* with diff: only the diff (`diff`), not the reports (`report --diff`) */
};

/* Which document a view's column is from, when there are several:
 * "A"/"B" with a diff, else "1", "2", ...; "" for one document. */
void bt_page_doc_tag(const struct bt_page *p, const struct bt_results_doc *doc, char *buf, size_t len);

void bt_page_html(struct bt_strbuf *out, const struct bt_page *p);
void bt_page_text(struct bt_strbuf *out, const struct bt_page *p);
void bt_page_csv(struct bt_strbuf *out, const struct bt_page *p);

/* What every format says about where a document's counts come from:
 * "SIMULATED" or "measured". */
const char *bt_page_provenance(const struct bt_results_doc *doc);
/* One line on it: "SIMULATED: counts of baretop's simulated PMU (...), not measured on hardware". */
void bt_page_provenance_line(struct bt_strbuf *out, const struct bt_results_doc *doc);

/* The level-1 values of a view, by category (NaN where absent), and in
 * out[BT_L1_OTHER] the sum of level-1 nodes of no category (Zen 4's
 * smt_contention), NaN when there is none. */
#define BT_L1_SLOTS (BT_L1_COUNT + 1)
void bt_page_level1(const struct bt_view *v, double out[BT_L1_SLOTS]);

/* Whether a node is listed: the console's node set, every node but those
 * not measured on purpose (drill-down, --level N: state "not_measured"),
 * which are counted, bt_page_unlisted(), not listed. */
int bt_page_listed(const struct bt_view_node *n);
/* What a workload x node cell without a value says: "n/a" (measured, a
 * division by zero), "missing" (measured, an input not counted), NULL (not
 * measured: absent or not measured on purpose). */
const char *bt_page_no_value(const struct bt_view_node *n);
/* A node's state as the pages show it where it has no value: "missing",
 * "invalid", or "not measured (no retire latency: EVENT:R ...)". */
const char *bt_page_state_text(const struct bt_view_node *n, char *buf, size_t size);
/* The retire-latency inputs of a counted workload (counted.retire_latency,
 * results format 3; format 2 held {EVENT: cycles}): for each, a text saying
 * its value and source ("10.00 cycles, file /x.json (min 1, max 100)",
 * "not measured: ..."). Returns how many; NULL object = none. */
size_t bt_page_latencies(const struct bt_view *v, const char **names, double *mean, char (*text)[240],
			 size_t cap);
size_t bt_page_unlisted(const struct bt_view *v);
/* What a node's value rests on, by its results-file "latency" name
 * ("published": "a published mean retire latency (not measured)"): the
 * report's text and its HTML. */
const char *bt_latency_phrase(const char *name);
/* "tree nodes resting on retire latencies: ..." over the listed nodes, the
 * console's line (report/tree.h bt_latency_counts_text); "" when none. */
void bt_page_latency_counts(const struct bt_view *v, struct bt_strbuf *sb);

/* Per step of a counted workload: the run checks (shared by the formats). */
struct bt_page_step {
	unsigned level, nodes, events, groups, lower_bound, runs, retried, flagged;
	double inst_min, inst_median, inst_max; /* NaN without fixed counter 0 */
	double agreement;       /* (max - min) / median of instructions; NaN when unknown */
	unsigned smis;          /* SMI count summed over the step's kept runs */
	int smm_frozen;         /* 1, 0, -1 = not said */
};
size_t bt_page_steps(const struct bt_view *v, struct bt_page_step *out, size_t cap);
/* Consistency verdicts: held, violated, not applicable. */
void bt_page_rule_counts(const struct bt_view *v, unsigned *held, unsigned *violated, unsigned *na);

#endif

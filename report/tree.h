/* SPDX-License-Identifier: MIT */
/*
 * Writing an evaluated tree: text for people (the console) and JSON for
 * programs (replay --json, and the results file through the same writer).
 * Both use only the C library, so they work hosted and in the EFI app
 * (newlib). Every report says where its counts came from (input_label),
 * so replayed or simulated numbers are never mistaken for a live run.
 */
#ifndef REPORT_TREE_H
#define REPORT_TREE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/json-write.h"
#include "base/text-style.h"
#include "metrics/model.h"
#include "metrics/rules.h"

/* struct bt_untrust: metrics/rules.h */
/* What happened to the event, by verdict: "failed validation", "was
 * skipped in validation", "disagrees with PERF_METRICS" (CROSS), "is
 * named by a violated consistency rule" (RULE). One
 * phrase for the console, the report's text and its HTML. */
const char *bt_untrust_phrase(const char *verdict);
/* "untrusted: EVENT failed validation (CHECK)" (the phrase by verdict) */
void bt_untrust_text(const struct bt_untrust *u, char *buf, size_t size);

struct bt_report_opts {
	unsigned max_level;       /* deepest tree level shown; 0 = all */
	int info;                 /* text: also list Info_/Bottleneck_ metrics */
	int flagged_only;         /* text: show a node only if its parent chain is flagged */
	const char *input_label;  /* e.g. "replayed counts from 000.json (evaluated from the file: ...)" */
	/* the tree nodes the caller set out to compute (one byte per node;
	 * NULL = all of them up to max_level). The others were left out on
	 * purpose (drill-down, --level N), for the reason in `untargeted_why`:
	 * they were not measured, which is not "missing" an input (a value
	 * one of them has comes from inputs counted for other nodes). Text:
	 * they are not listed, only counted (bt_tree_not_measured); JSON:
	 * their state is "not_measured" and the tree's "not_measured" says
	 * why. */
	const unsigned char *targeted;
	const char *untargeted_why;
	/* JSON: the consistency verdicts of this tree, written as "consistency"
	 * at the end of the document (replay --json); NULL = none */
	const struct bt_consistency *consistency;
	/* text: the console's styling (flagged nodes and the bottleneck path
	 * highlighted, bars in block characters); NULL = plain text, bars in
	 * '#' and '.' */
	const struct bt_text_styler *styler;
	/* JSON "values" and "thresh" maps of a replayed count file (replay
	 * --json, what check.py reads): a node not measured for want of a retire
	 * latency gets the number its formula gives with perf's -1 for the
	 * latency, the definition of the reference vectors
	 * (../shared/testdata/tma/FORMAT.md), and "values_latency" says so; its
	 * "nodes" entry still says not_measured (value null). 0: null, as in
	 * every results file. */
	int perf_latency_values;
	/* JSON: the inputs, to write each retire latency with its source
	 * ("retire_latency": {EVENT: {"mean": m, "source": s}}; replay --json);
	 * NULL = not written (results files carry them in "counted") */
	const struct bt_counts *counts;
	/* who measured the inputs of source "measured" when not baretop's
	 * timed PEBS (replay --perf-stat: "perf tpebs"): the text says
	 * "measured (perf tpebs)", the JSON's retire_latency entries "detail";
	 * NULL: nothing said */
	const char *rl_measured_by;
	/* per node, why it is not trusted (NULL: no such judgement). Text: a line under the node's row and a list after the
	 * tree; JSON: the node's "untrusted": {"event", "check", "verdict"}. */
	const struct bt_untrust *untrusted;
};

/*
 * The tree as text, every line at most BT_CONSOLE_COLS (79) columns
 * (report/text-fit.h): a bar per level-1 node, then one row per node
 * (level, name indented by depth, value, flag, CPI share); a name that does
 * not fit its column gets a line of its own, the numbers the next one.
 */
bt_status bt_report_text(FILE *f, const struct bt_model *m, const struct bt_result *r,
			 const struct bt_report_opts *o);
/* How a node's row is highlighted: the bottleneck path, else flagged,
 * else normal. */
enum bt_text_style bt_tree_node_style(const struct bt_result *r, unsigned i);
/* Whether tree node i was not measured: left out on purpose (o->targeted).
 * Such a node is neither listed nor "missing"; the
 * console and the host pages (analysis/page-common.c, from the JSON
 * state) list the same nodes. */
bool bt_tree_not_measured(const struct bt_result *r, const struct bt_report_opts *o, unsigned i);
/* Why tree node i has no CPI-stack share (cpi_share NaN): "CPI is not
 * available", or the sibling that stopped its parent's split (not
 * measured, no retire latency, a count not given, n/a). */
void bt_cpi_share_why(const struct bt_model *m, const struct bt_result *r, unsigned i, char *buf,
		      size_t size);
/* The one-letter column R of a node row: what its value rests on where it
 * reads retire latencies (enum bt_node_latency): m measured, g given, f
 * --retire-latency-file, p a published mean, c the formula's cap; ' '
 * for none (and for "not meas.", which says so itself). */
char bt_tree_latency_tag(const struct bt_result *r, unsigned i);
/* "tree nodes resting on retire latencies: N: a published mean ... (p),
 * ..." (nothing when no node reads one): the count of each kind. */
struct bt_strbuf;
void bt_tree_latency_summary(struct bt_strbuf *sb, const struct bt_result *r);
/* The same from counts by enum bt_node_latency (BT_LAT_COUNT of them). */
void bt_latency_counts_text(struct bt_strbuf *sb, const unsigned *n);

/* A percentage's digits as every output shows them: "%.2f", except a
 * value below 0 that would read "-0.00" gets its significant digits
 * ("-0.0025"): a share below 0 is shown as one, never as a negative
 * zero. NaN: "n/a". No "%" sign. */
const char *bt_pct_digits(char *buf, size_t size, double pct);
/* A bar of `cells` cells, the first round(frac * cells) (clamped to
 * 0..cells; none for NaN) filled: U+2588 FULL BLOCK then U+2591 LIGHT
 * SHADE in UTF-8 with `blocks`, else '#' then '.'. */
#define BT_BAR_CELLS 40
void bt_bar_text(char *buf, size_t size, double frac, unsigned cells, bool blocks);
/*
 * {"model", "input", "values": {node: number|null}, "thresh": {node: bool},
 *  "nodes": {node: {value, raw, level, parent, kind, state[, latency], thresh
 *  [, thresh_literal][, cpi_share]}}, "bottleneck_path": [...], "cpi", "missing_events": [...],
 *  "missing_constants": [...], "retire_latency_defaults_used"[, "consistency": [...]]}
 * "values"/"thresh" are what ../shared/testdata/check.py reads: tree nodes as
 * fractions, Info_/Bottleneck_ in their own scale, null = invalid/missing.
 */
bt_status bt_report_json(FILE *f, const struct bt_model *m, const struct bt_result *r,
			 const struct bt_report_opts *o);
/* The same document as the value of `key` (NULL: the top level or an array
 * element) of the JSON being written by j. */
void bt_report_json_write(struct bt_jw *j, const char *key, const struct bt_model *m,
			  const struct bt_result *r, const struct bt_report_opts *o);

#endif

/* SPDX-License-Identifier: MIT */
/* The tree as text: indented by depth, with flags, the bottleneck path and
 * each node's CPI-stack component (metrics/eval.c cpi_stack: level 1 its
 * fraction x CPI, below its parent's split by value) in its own column,
 * after a bar per level-1 node. Every line fits the console's 80 columns
 * (text-fit.h): long lists wrap at spaces, long names get a line of their
 * own; numbers are never cut. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/array.h"
#include "report/text-fit.h"
#include "report/tree.h"

static int on_path(const struct bt_result *r, unsigned i)
{
	for (unsigned k = 0; k < r->path_len; k++)
		if (r->path[k] == i)
			return 1;
	return 0;
}

enum bt_text_style bt_tree_node_style(const struct bt_result *r, unsigned i)
{
	if (on_path(r, i))
		return BT_STYLE_PATH;
	return r->flag[i] ? BT_STYLE_FLAGGED : BT_STYLE_NORMAL;
}

static void value_text(char *buf, size_t size, const struct bt_result *r, unsigned i, int percent)
{
	if (r->state[i] == BT_NODE_MISSING)
		snprintf(buf, size, "missing");
	else if (r->state[i] == BT_NODE_NO_RETIRE_LATENCY)
		snprintf(buf, size, "not meas.");
	else if (isnan(r->value[i]))
		snprintf(buf, size, "n/a");
	else if (percent && fabs(r->value[i] * 100) < 1e4) {
		char d[40];
		snprintf(buf, size, "%s%%", bt_pct_digits(d, sizeof(d), r->value[i] * 100));
	}
	else if (percent) /* a broken count set: keep every digit that matters */
		snprintf(buf, size, "%.4g%%", r->value[i] * 100);
	else
		snprintf(buf, size, "%.6g", r->value[i]);
}

const char *bt_pct_digits(char *buf, size_t size, double pct)
{
	if (isnan(pct))
		snprintf(buf, size, "n/a");
	else if (pct < 0 && pct > -0.005)
		/* within the range rule's tolerance, or the rule says so */
		snprintf(buf, size, "%.2g", pct);
	else
		snprintf(buf, size, "%.2f", pct);
	return buf;
}

void bt_bar_text(char *buf, size_t size, double frac, unsigned cells, bool blocks)
{
	unsigned filled = 0;
	size_t n = 0;

	if (!size)
		return;
	if (!isnan(frac) && frac > 0)
		filled = frac >= 1 ? cells : (unsigned)(frac * cells + 0.5);
	for (unsigned k = 0; k < cells; k++) {
		const char *c = blocks ? (k < filled ? "\xe2\x96\x88" : "\xe2\x96\x91")
				       : (k < filled ? "#" : ".");
		size_t len = strlen(c);

		if (n + len >= size)
			break;
		memcpy(buf + n, c, len);
		n += len;
	}
	buf[n] = '\0';
}

/* The columns of a node row: "  level " then the name, indented by depth,
 * to column NAME_END, then the numbers. */
#define LEVEL_COLS 8
#define NAME_END (LEVEL_COLS + 44)
/* The level-1 bars: the name to column BAR_NAME_END, then the bar. */
#define BAR_NAME_END 22

static void trim_right(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

static void spaces(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

/* Ends a line: the style is reset first, so a highlight never runs on into
 * the rest of the screen line. */
static void end_line(FILE *f, const struct bt_text_styler *sty, enum bt_text_style s)
{
	if (s != BT_STYLE_NORMAL)
		bt_text_style_set(sty, f, BT_STYLE_NORMAL);
	fputc('\n', f);
}

/*
 * One row within BT_CONSOLE_COLS: lead, then name padded to column
 * name_end, then tail (numbers, which are never cut). When lead + name +
 * tail do not fit, the name gets a line of its own (abbreviated in its
 * middle with ".." only if even that line would be too long) and the tail
 * goes on the next line, right-aligned as far as it can be to name_end.
 */
static void fit_row(FILE *f, const struct bt_text_styler *sty, enum bt_text_style s,
		    const char *lead, const char *name, size_t name_end, const char *tail)
{
	size_t lead_cols = bt_text_cols(lead), name_cols = bt_text_cols(name);
	size_t tail_cols = bt_text_cols(tail);
	size_t at = lead_cols + name_cols;

	if (s != BT_STYLE_NORMAL)
		bt_text_style_set(sty, f, s);
	fputs(lead, f);
	if ((at > name_end ? at : name_end) + tail_cols <= BT_CONSOLE_COLS) {
		fputs(name, f);
		spaces(f, at < name_end ? name_end - at : 0);
		fputs(tail, f);
		end_line(f, sty, s);
		return;
	}
	if (at <= BT_CONSOLE_COLS || lead_cols + 16 > BT_CONSOLE_COLS) {
		fputs(name, f);
	} else {
		/* Keep the start (the family) and the end (the specific part). */
		size_t room = BT_CONSOLE_COLS - lead_cols - 2, tail_keep = room / 2;
		size_t head_keep = room - tail_keep, len = strlen(name);

		fwrite(name, 1, head_keep, f);
		fputs("..", f);
		fputs(name + len - tail_keep, f);
	}
	end_line(f, sty, s);
	if (s != BT_STYLE_NORMAL)
		bt_text_style_set(sty, f, s);
	size_t pad = tail_cols < BT_CONSOLE_COLS ? BT_CONSOLE_COLS - tail_cols : 0;
	spaces(f, pad < name_end ? pad : name_end);
	fputs(tail, f);
	end_line(f, sty, s);
}

static const char *mark_of(const struct bt_result *r, unsigned i)
{
	return on_path(r, i) ? "<==" : r->flag[i] ? "*" : "";
}

char bt_tree_latency_tag(const struct bt_result *r, unsigned i)
{
	static const char tag[BT_LAT_COUNT] = { ' ', 'm', 'g', 'f', 'p', 'c', ' ' };
	return r->latency[i] < BT_LAT_COUNT ? tag[r->latency[i]] : '?';
}

bool bt_tree_not_measured(const struct bt_result *r, const struct bt_report_opts *o, unsigned i)
{
	(void)r;
	return o->targeted && !o->targeted[i];
}

void bt_cpi_share_why(const struct bt_model *m, const struct bt_result *r, unsigned i, char *buf,
		      size_t size)
{
	const struct bt_node_def *nd = bt_model_node(m, i);
	int parent = nd->parent ? bt_model_node_find(m, nd->parent) : -1;
	const uint16_t *kids;
	unsigned nk = parent >= 0 ? bt_model_node_children(m, (unsigned)parent, &kids) : 0;

	snprintf(buf, size, "no CPI share: %s", isnan(r->cpi) ? "CPI is not available" : "");
	if (isnan(r->cpi))
		return;
	if (parent < 0) {
		snprintf(buf, size, "no CPI share: the node has no value");
		return;
	}
	/* the stack splits a parent among all its children or none
	 * (metrics/eval.c split_share): the first sibling without a share */
	for (unsigned k = 0; k < nk; k++) {
		unsigned s = kids[k];
		const char *what = r->exclude[s] & BT_EXCLUDE_NOT_MEASURED ? "was not measured"
				   : r->state[s] == BT_NODE_NO_RETIRE_LATENCY ? "needs a retire latency not measured"
				   : r->state[s] == BT_NODE_MISSING ? "needs a count not given"
				   : isnan(r->value[s]) ? "is n/a (division by zero)" : NULL;
		if (what) {
			snprintf(buf, size, "%s's stack is split among all its children or none, and %s %s",
				 nd->parent, bt_model_node(m, s)->name, what);
			return;
		}
	}
	snprintf(buf, size, "%s's children weigh nothing", nd->parent);
}

void bt_tree_latency_summary(struct bt_strbuf *sb, const struct bt_result *r)
{
	bt_latency_counts_text(sb, r->n_latency);
}

void bt_latency_counts_text(struct bt_strbuf *sb, const unsigned *n)
{
	static const char *const what[BT_LAT_COUNT] = {
		NULL, "measured (m)", "given (g)", "file (f)", "published mean (p)", "cap (c)",
		"no value (not meas.)",
	};
	unsigned total = 0;
	for (int k = BT_LAT_MEASURED; k < BT_LAT_COUNT; k++)
		total += n[k];
	if (!total)
		return;
	bt_sb_printf(sb, "tree nodes resting on retire latencies: %u:", total);
	for (int k = BT_LAT_COUNT - 1, first = 1; k >= BT_LAT_MEASURED; k--)
		if (n[k]) {
			bt_sb_printf(sb, "%s %u %s", first ? "" : ",", n[k], what[k]);
			first = 0;
		}
}

const char *bt_untrust_phrase(const char *verdict)
{
	if (verdict && strcmp(verdict, "SKIP") == 0)
		return "was skipped in validation";
	if (verdict && strcmp(verdict, "CROSS") == 0)
		return "disagrees with PERF_METRICS";
	if (verdict && strcmp(verdict, "RULE") == 0)
		return "is named by a violated consistency rule";
	return "failed validation";
}

void bt_untrust_text(const struct bt_untrust *u, char *buf, size_t size)
{
	snprintf(buf, size, "untrusted: %s %s (%s)", u->event, bt_untrust_phrase(u->verdict), u->check);
}

/* Every untrusted node, also those the flagged-only view does not list. */
static void print_untrusted(FILE *f, const struct bt_model *m, const struct bt_report_opts *o)
{
	struct bt_strbuf sb = { 0 };
	unsigned nn = bt_model_node_count(m), k = 0;

	if (!o->untrusted)
		return;
	for (unsigned i = 0; i < nn; i++)
		if (o->untrusted[i].event[0])
			bt_sb_printf(&sb, "%s%s", k++ ? ", " : "", bt_model_node(m, i)->name);
	if (k) {
		char head[200];

		snprintf(head, sizeof(head), "untrusted (an event its formula reads is named by a "
			 "violated consistency rule, a cross-check or failed validation; never the "
			 "bottleneck): %u node%s:", k, k == 1 ? "" : "s");
		fputc('\n', f);
		bt_text_wrap(f, BT_CONSOLE_COLS, "", "  ", head);
		bt_text_wrap(f, BT_CONSOLE_COLS, "  ", "  ", bt_sb_str(&sb));
	}
	bt_sb_free(&sb);
}

static void print_node(FILE *f, const struct bt_model *m, const struct bt_result *r,
		       const struct bt_report_opts *o, unsigned i, unsigned depth)
{
	const struct bt_node_def *nd = bt_model_node(m, i);
	if ((o->max_level && nd->level > o->max_level) || depth > 32)
		return;
	const uint16_t *kids;
	unsigned n = bt_model_node_children(m, i, &kids);
	if (bt_tree_not_measured(r, o, i)) {
		/* Left out on purpose: counted in the footer, not listed (the
		 * host pages list the same nodes). */
		for (unsigned k = 0; k < n; k++)
			print_node(f, m, r, o, kids[k], depth + 1);
		return;
	}
	char val[40], cpi[40] = "", lead[96], tail[120];
	value_text(val, sizeof(val), r, i, 1);
	if (!isnan(r->cpi_share[i]))
		snprintf(cpi, sizeof(cpi), "%.4f", r->cpi_share[i]);
	snprintf(lead, sizeof(lead), "  %-5u %*s", nd->level, (int)(2 * (depth < 16 ? depth : 16)),
		 "");
	snprintf(tail, sizeof(tail), " %9s %c %-3s  %9s", val, bt_tree_latency_tag(r, i), mark_of(r, i),
		 cpi);
	trim_right(tail);
	fit_row(f, o->styler, bt_tree_node_style(r, i), lead, nd->name, NAME_END, tail);
	if (o->untrusted && o->untrusted[i].event[0]) {
		char why[300], ind[64];

		bt_untrust_text(&o->untrusted[i], why, sizeof(why));
		snprintf(ind, sizeof(ind), "        %*s", (int)(2 * (depth < 16 ? depth : 16)), "");
		bt_text_wrap(f, BT_CONSOLE_COLS, ind, ind, why);
	}
	/* A node without a vendor threshold cannot be "not flagged": its
	 * children are shown (and drill-down measures them). */
	if (o->flagged_only && !r->flag[i] && r->has_flag[i])
		return;
	for (unsigned k = 0; k < n; k++)
		print_node(f, m, r, o, kids[k], depth + 1);
}

/* A bar per level-1 node: the picture of where the slots went. */
static void print_bars(FILE *f, const struct bt_model *m, const struct bt_result *r,
		       const struct bt_report_opts *o)
{
	const uint16_t *roots;
	unsigned n_roots = bt_model_roots(m, &roots);
	bool blocks = o->styler && o->styler->blocks;
	char bar[BT_BAR_CELLS * 3 + 1], val[40], tail[220];

	fprintf(f, "\n  level 1 (a bar cell is %.1f %%)\n", 100.0 / BT_BAR_CELLS);
	for (unsigned k = 0; k < n_roots; k++) {
		unsigned i = roots[k];

		bt_bar_text(bar, sizeof(bar), r->state[i] == BT_NODE_MISSING ? NAN : r->value[i],
			    BT_BAR_CELLS, blocks);
		value_text(val, sizeof(val), r, i, 1);
		snprintf(tail, sizeof(tail), " %s %9s  %-3s", bar, val, mark_of(r, i));
		trim_right(tail);
		fit_row(f, o->styler, bt_tree_node_style(r, i), "  ", bt_model_node(m, i)->name,
			BAR_NAME_END, tail);
	}
}

/* The nodes that have no value because a retire latency their formula
 * multiplies by was not measured (and the formula has no fallback), each with
 * those latencies: the reason the tree shows "not meas." for them. */
static void print_no_latency(FILE *f, const struct bt_model *m, const struct bt_result *r,
			     const struct bt_report_opts *o, unsigned level)
{
	unsigned nn = bt_model_node_count(m), shown = 0;
	uint16_t *rl = malloc((bt_model_retire_latency_count(m) + 1) * sizeof(*rl));
	struct bt_strbuf sb = { 0 };

	for (unsigned i = 0; rl && i < nn; i++) {
		const struct bt_node_def *nd = bt_model_node(m, i);
		if (nd->kind != BT_NODE_TREE || nd->level > level ||
		    r->state[i] != BT_NODE_NO_RETIRE_LATENCY || (o->targeted && !o->targeted[i]))
			continue;
		if (!shown++) {
			fputc('\n', f);
			bt_text_wrap(f, BT_CONSOLE_COLS, "", "  ",
				     "not measured (no retire latency): the formula multiplies by "
				     "the retire latency of an event that no source gave, and has no "
				     "fallback for it:");
		}
		unsigned n = bt_result_node_latencies(r, i, rl);
		sb.n = 0;
		bt_sb_printf(&sb, "%s:", nd->name);
		for (unsigned k = 0; k < n; k++)
			bt_sb_printf(&sb, " %s:R", bt_model_retire_latency_name(m, rl[k]));
		bt_text_wrap(f, BT_CONSOLE_COLS, "  ", "    ", bt_sb_str(&sb));
	}
	bt_sb_free(&sb);
	free(rl);
}

/* The inputs that the nodes the caller wanted lack, and those nodes; nodes
 * left out on purpose (drill-down) are only counted. */
static void print_missing(FILE *f, const struct bt_model *m, const struct bt_result *r,
			  const struct bt_report_opts *o)
{
	unsigned level = o->max_level ? o->max_level : bt_model_max_level(m);
	unsigned nn = bt_model_node_count(m), n_ev = bt_model_event_count(m);
	unsigned *want = malloc((nn + 1) * sizeof(*want));
	uint16_t *need = malloc((n_ev + 1) * sizeof(*need));
	uint8_t *needed = calloc(n_ev + 1, 1);
	unsigned n_want = 0, n_need = 0, n_left_out = 0, shown = 0;

	if (!want || !need || !needed)
		goto out;
	for (unsigned i = 0; i < nn; i++) {
		const struct bt_node_def *nd = bt_model_node(m, i);

		if (nd->kind != BT_NODE_TREE || nd->level > level)
			continue;
		if (bt_tree_not_measured(r, o, i))
			n_left_out++;
		else if (r->state[i] == BT_NODE_MISSING && (!o->targeted || o->targeted[i]))
			want[n_want++] = i;
	}
	if (n_want && bt_model_events_for_nodes(m, want, n_want, NULL, need, &n_need) == BT_OK)
		for (unsigned k = 0; k < n_need; k++)
			needed[need[k]] = 1;
	for (unsigned k = 0; k < r->n_missing_events; k++)
		shown += needed[r->missing_events[k]];
	if (shown || (n_want && r->missing_constants)) {
		struct bt_strbuf sb = { 0 };

		for (unsigned k = 0; k < r->n_missing_events; k++)
			if (needed[r->missing_events[k]])
				bt_sb_printf(&sb, " %s", bt_model_event(m, r->missing_events[k])->name);
		for (int k = 0; k < BT_CONST_COUNT; k++)
			if (r->missing_constants >> k & 1)
				bt_sb_printf(&sb, " #%s", bt_constant_name((enum bt_constant)k));
		if (o->targeted)
			fprintf(f, "\nmissing inputs of the nodes measured:\n");
		else
			fprintf(f, "\nmissing inputs of the tree up to level %u:\n", level);
		bt_text_wrap(f, BT_CONSOLE_COLS, "  ", "  ", sb.n ? bt_sb_str(&sb) : "");
		sb.n = 0;
		for (unsigned k = 0; k < n_want; k++)
			bt_sb_printf(&sb, " %s", bt_model_node(m, want[k])->name);
		fprintf(f, "nodes that cannot be computed without them:\n");
		bt_text_wrap(f, BT_CONSOLE_COLS, "  ", "  ", sb.n ? bt_sb_str(&sb) : "");
		bt_sb_free(&sb);
	}
	print_no_latency(f, m, r, o, level);
	if (n_left_out) {
		char line[400];

		snprintf(line, sizeof(line), "%u deeper node%s not measured: %s",
			 n_left_out, n_left_out == 1 ? "" : "s",
			 o->untargeted_why ? o->untargeted_why : "left out by the caller");
		fputc('\n', f);
		bt_text_wrap(f, BT_CONSOLE_COLS, "", "  ", line);
	}
out:
	free(want);
	free(need);
	free(needed);
}

bt_status bt_report_text(FILE *f, const struct bt_model *m, const struct bt_result *r,
			 const struct bt_report_opts *o)
{
	const struct bt_model_def *def = bt_model_def(m);
	const struct bt_text_styler *sty = o->styler;
	struct bt_strbuf sb = { 0 };

	bt_sb_printf(&sb, "baretop Top-Down analysis, model %s (%s)", def->id, def->uarch);
	bt_text_wrap(f, BT_CONSOLE_COLS, "", "  ", bt_sb_str(&sb));
	bt_text_wrap(f, BT_CONSOLE_COLS, "  formulas: ", "            ", def->source);
	if (o->input_label && *o->input_label)
		bt_text_wrap(f, BT_CONSOLE_COLS, "  input:    ", "            ", o->input_label);
	sb.n = 0;
	if (r->smt.formulas >= 0) {
		bt_sb_printf(&sb, "sibling active %.1f%% of the time: HYPERTHREADING_ON = %d",
			     r->smt.sibling_active * 100, r->smt.formulas);
		if (r->smt.flagged)
			bt_sb_printf(&sb, "; FLAGGED: core clocks %.0f%% off perf's estimate",
				     r->smt.error * 100);
		bt_text_wrap(f, BT_CONSOLE_COLS, "  SMT:      ", "            ", bt_sb_str(&sb));
		sb.n = 0;
	}
	if (r->n_rl_source[BT_RL_MEASURED] || r->n_rl_source[BT_RL_FILE] || r->n_rl_source[BT_RL_GIVEN]) {
		/* each source, in the order tried */
		static const struct {
			uint8_t src;
			const char *what;
		} order[] = { { BT_RL_MEASURED, "measured" }, { BT_RL_GIVEN, "given with the counts" },
			      { BT_RL_FILE, "--retire-latency-file" },
			      { BT_RL_PUBLISHED, "published means" },
			      { BT_RL_NONE, "not measured (the formula's fallback, or the node is not measured)" } };
		bt_sb_printf(&sb, "retire latencies (%u inputs):", bt_model_retire_latency_count(m));
		int first = 1;
		for (unsigned k = 0; k < BT_ARRAY_SIZE(order); k++)
			if (r->n_rl_source[order[k].src]) {
				bt_sb_printf(&sb, "%s %u %s", first ? "" : ";", r->n_rl_source[order[k].src],
					     order[k].what);
				if (order[k].src == BT_RL_MEASURED && o->rl_measured_by)
					bt_sb_printf(&sb, " (%s)", o->rl_measured_by);
				first = 0;
			}
	} else if (r->n_default_retire_latency)
		bt_sb_printf(&sb, "retire latencies: %u not measured, their published means stand "
			     "in (%s)", r->n_default_retire_latency,
			     def->retire_latency_source ? def->retire_latency_source : "?");
	else if (bt_model_retire_latency_count(m))
		bt_sb_printf(&sb, "retire latencies: as given; any not given count as not "
			     "measured (-1): the formula's own fallback applies, and a node "
			     "without one is not measured");
	if (sb.n)
		bt_text_wrap(f, BT_CONSOLE_COLS, "  ", "    ", bt_sb_str(&sb));
	sb.n = 0;
	bt_tree_latency_summary(&sb, r);
	if (sb.n)
		bt_text_wrap(f, BT_CONSOLE_COLS, "  ", "    ", bt_sb_str(&sb));
	print_bars(f, m, r, o);
	fputc('\n', f);
	bt_text_style_set(sty, f, BT_STYLE_HEADING);
	fprintf(f, "  %-5s %-44s %9s %c %-4s %9s", "level", "node", "value", 'R', "flag", "CPI share");
	end_line(f, sty, BT_STYLE_HEADING);
	const uint16_t *roots;
	unsigned n_roots = bt_model_roots(m, &roots);
	for (unsigned k = 0; k < n_roots; k++)
		print_node(f, m, r, o, roots[k], 0);
	fputc('\n', f);
	bt_text_wrap(f, BT_CONSOLE_COLS, "  ", "  ", "* = flagged (vendor threshold), <== = "
		     "bottleneck path, n/a = division by zero, missing = needs a count that was "
		     "not given, not meas. = needs a retire latency that was not measured "
		     "(listed below); R = the value rests on a retire latency: m measured, g "
		     "given, f from a file, p a published mean, c the formula's cap");
	fputc('\n', f);
	int any_threshold = 0;
	for (unsigned i = 0; i < bt_model_node_count(m); i++)
		any_threshold |= bt_model_node(m, i)->kind == BT_NODE_TREE && r->has_flag[i];
	int untrusted_flag = 0;
	for (unsigned i = 0; i < bt_model_node_count(m); i++)
		untrusted_flag |= bt_model_node(m, i)->kind == BT_NODE_TREE &&
				  bt_model_node(m, i)->level == 1 && r->flag[i] && (r->exclude[i] & BT_EXCLUDE_UNTRUSTED);
	sb.n = 0;
	if (!r->path_len && untrusted_flag)
		bt_sb_puts(&sb, "(no trusted level-1 node is flagged: the flagged ones are untrusted)");
	else if (!r->path_len)
		bt_sb_puts(&sb, any_threshold ? "(no level-1 node is flagged)"
					      : "(the vendor files define no thresholds for this model)");
	for (unsigned k = 0; k < r->path_len; k++)
		bt_sb_printf(&sb, "%s%s", k ? " > " : "", bt_model_node(m, r->path[k])->name);
	if (r->path_len && r->path_largest_share)
		bt_sb_puts(&sb, " -- " BT_PATH_LARGEST_SHARE);
	if (r->path_len)
		bt_text_style_set(sty, f, BT_STYLE_PATH);
	bt_text_wrap(f, BT_CONSOLE_COLS, "bottleneck path: ", "  ", bt_sb_str(&sb));
	if (r->path_len)
		bt_text_style_set(sty, f, BT_STYLE_NORMAL);
	sb.n = 0;
	if (!isnan(r->cpi) && r->path_largest_share) {
		/* CPI shares are given for flagged nodes; with no thresholds
		 * there are none, and the path is by value, not by CPI. */
		bt_sb_printf(&sb, "CPI %.4f cycles/instruction (%s)", r->cpi, def->cpi_node);
	} else if (!isnan(r->cpi)) {
		bt_sb_printf(&sb, "CPI %.4f cycles/instruction (%s); CPI stack of the bottleneck path:",
			     r->cpi, def->cpi_node);
		for (unsigned k = 0; k < r->path_len; k++) {
			unsigned p = r->path[k];
			if (!isnan(r->cpi_share[p])) {
				bt_sb_printf(&sb, " %s %.4f", bt_model_node(m, p)->name, r->cpi_share[p]);
				continue;
			}
			char why[200];
			bt_cpi_share_why(m, r, p, why, sizeof(why));
			bt_sb_printf(&sb, " %s n/a (%s)", bt_model_node(m, p)->name, why);
			break;
		}
	} else {
		bt_sb_printf(&sb, "CPI not available%s%s", def->cpi_node ? ": " : "",
			     def->cpi_node ? def->cpi_node : "");
	}
	bt_text_wrap(f, BT_CONSOLE_COLS, "", "  ", bt_sb_str(&sb));
	bt_sb_free(&sb);
	if (o->info) {
		fputc('\n', f);
		bt_text_style_set(sty, f, BT_STYLE_HEADING);
		fprintf(f, "  %-56s %14s  %s", "metric", "value", "flag");
		end_line(f, sty, BT_STYLE_HEADING);
		for (unsigned i = 0; i < bt_model_node_count(m); i++) {
			const struct bt_node_def *nd = bt_model_node(m, i);
			if (nd->kind == BT_NODE_TREE)
				continue;
			char val[40], tail[80];
			value_text(val, sizeof(val), r, i, 0);
			snprintf(tail, sizeof(tail), " %14s  %s", val, r->flag[i] ? "*" : "");
			trim_right(tail);
			fit_row(f, sty, r->flag[i] ? BT_STYLE_FLAGGED : BT_STYLE_NORMAL, "  ", nd->name,
				58, tail);
		}
	}
	print_missing(f, m, r, o);
	print_untrusted(f, m, o);
	return ferror(f) ? BT_ERR_IO : BT_OK;
}

/* SPDX-License-Identifier: MIT */
/* The tree as text: indented by depth, with flags, the bottleneck path and
 * each flagged node's share of CPI (its fraction x CPI) in its own column. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tree.h"

static int on_path(const struct bt_result *r, unsigned i)
{
	for (unsigned k = 0; k < r->path_len; k++)
		if (r->path[k] == i)
			return 1;
	return 0;
}

static void value_text(char *buf, size_t size, const struct bt_result *r, unsigned i, int percent)
{
	if (r->state[i] == BT_NODE_MISSING)
		snprintf(buf, size, "missing");
	else if (isnan(r->value[i]))
		snprintf(buf, size, "n/a");
	else if (percent)
		snprintf(buf, size, "%.2f%%", r->value[i] * 100);
	else
		snprintf(buf, size, "%.6g", r->value[i]);
}

static void print_node(FILE *f, const struct bt_model *m, const struct bt_result *r,
		       const struct bt_report_opts *o, unsigned i, unsigned depth)
{
	const struct bt_node_def *nd = bt_model_node(m, i);
	if ((o->max_level && nd->level > o->max_level) || depth > 32)
		return;
	char val[40], cpi[40] = "";
	value_text(val, sizeof(val), r, i, 1);
	if (!isnan(r->cpi_share[i]))
		snprintf(cpi, sizeof(cpi), "%.4f", r->cpi_share[i]);
	const char *mark = on_path(r, i) ? "<==" : r->flag[i] ? "*" : "";
	fprintf(f, "  %-5u %*s%-*s %10s  %-3s  %9s\n", nd->level, (int)(2 * depth), "",
		(int)(46 - 2 * depth > 10 ? 46 - 2 * depth : 10), nd->name, val, mark, cpi);
	/* A node without a vendor threshold cannot be "not flagged": its
	 * children are shown (and drill-down measures them). */
	if (o->flagged_only && !r->flag[i] && r->has_flag[i])
		return;
	const uint16_t *kids;
	unsigned n = bt_model_node_children(m, i, &kids);
	for (unsigned k = 0; k < n; k++)
		print_node(f, m, r, o, kids[k], depth + 1);
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
		if (o->targeted && !o->targeted[i])
			n_left_out++;
		else if (r->state[i] == BT_NODE_MISSING)
			want[n_want++] = i;
	}
	if (n_want && bt_model_events_for_nodes(m, want, n_want, NULL, need, &n_need) == BT_OK)
		for (unsigned k = 0; k < n_need; k++)
			needed[need[k]] = 1;
	for (unsigned k = 0; k < r->n_missing_events; k++)
		shown += needed[r->missing_events[k]];
	if (shown || (n_want && r->missing_constants)) {
		if (o->targeted)
			fprintf(f, "\nmissing inputs of the nodes measured:");
		else
			fprintf(f, "\nmissing inputs of the tree up to level %u:", level);
		for (unsigned k = 0; k < r->n_missing_events; k++)
			if (needed[r->missing_events[k]])
				fprintf(f, " %s", bt_model_event(m, r->missing_events[k])->name);
		for (int k = 0; k < BT_CONST_COUNT; k++)
			if (r->missing_constants >> k & 1)
				fprintf(f, " #%s", bt_constant_name((enum bt_constant)k));
		fprintf(f, "\nnodes that cannot be computed without them:");
		for (unsigned k = 0; k < n_want; k++)
			fprintf(f, " %s", bt_model_node(m, want[k])->name);
		fprintf(f, "\n");
	}
	if (n_left_out)
		fprintf(f, "\n%u deeper node%s not measured: %s\n", n_left_out,
			n_left_out == 1 ? "" : "s",
			o->untargeted_why ? o->untargeted_why : "left out by the caller");
out:
	free(want);
	free(need);
	free(needed);
}

bt_status bt_report_text(FILE *f, const struct bt_model *m, const struct bt_result *r,
			 const struct bt_report_opts *o)
{
	const struct bt_model_def *def = bt_model_def(m);
	fprintf(f, "baretop Top-Down analysis, model %s (%s)\n", def->id, def->uarch);
	fprintf(f, "  formulas: %s\n", def->source);
	if (o->input_label && *o->input_label)
		fprintf(f, "  input:    %s\n", o->input_label);
	if (r->n_default_retire_latency)
		fprintf(f, "  retire latencies: %u taken from the vendor's published defaults (%s), "
			   "not measured\n", r->n_default_retire_latency,
			def->retire_latency_source ? def->retire_latency_source : "?");
	else if (bt_model_retire_latency_count(m))
		fprintf(f, "  retire latencies: as given; any not given count as not measured (-1)\n");
	fprintf(f, "\n  %-5s %-46s %10s  %-4s %9s\n", "level", "node", "value", "flag", "CPI share");
	const uint16_t *roots;
	unsigned n_roots = bt_model_roots(m, &roots);
	for (unsigned k = 0; k < n_roots; k++)
		print_node(f, m, r, o, roots[k], 0);
	fprintf(f, "\n  * = flagged (vendor threshold), <== = bottleneck path, n/a = division by zero,\n"
		   "  missing = needs a count that was not given\n\n");
	fprintf(f, "bottleneck path: ");
	int any_threshold = 0;
	for (unsigned i = 0; i < bt_model_node_count(m); i++)
		any_threshold |= bt_model_node(m, i)->kind == BT_NODE_TREE && r->has_flag[i];
	if (!r->path_len)
		fprintf(f, "%s", any_threshold ? "(no level-1 node is flagged)"
					      : "(the vendor files define no thresholds for this model)");
	for (unsigned k = 0; k < r->path_len; k++)
		fprintf(f, "%s%s", k ? " > " : "", bt_model_node(m, r->path[k])->name);
	fprintf(f, "\n");
	if (!isnan(r->cpi)) {
		fprintf(f, "CPI %.4f cycles/instruction (%s); CPI stack of the bottleneck path:", r->cpi,
			def->cpi_node);
		for (unsigned k = 0; k < r->path_len; k++)
			fprintf(f, " %s %.4f", bt_model_node(m, r->path[k])->name, r->cpi_share[r->path[k]]);
		fprintf(f, "\n");
	} else {
		fprintf(f, "CPI not available%s%s\n", def->cpi_node ? ": " : "",
			def->cpi_node ? def->cpi_node : "");
	}
	if (o->info) {
		fprintf(f, "\n  %-60s %14s  %s\n", "metric", "value", "flag");
		for (unsigned i = 0; i < bt_model_node_count(m); i++) {
			const struct bt_node_def *nd = bt_model_node(m, i);
			if (nd->kind == BT_NODE_TREE)
				continue;
			char val[40];
			value_text(val, sizeof(val), r, i, 0);
			fprintf(f, "  %-60s %14s  %s\n", nd->name, val, r->flag[i] ? "*" : "");
		}
	}
	print_missing(f, m, r, o);
	return ferror(f) ? BT_ERR_IO : BT_OK;
}

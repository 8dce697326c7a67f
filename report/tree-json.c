/* SPDX-License-Identifier: MIT */
/*
 * The tree as JSON, through the results document's writer (base/json-write):
 * standalone for `baretop-host replay --json` and check.py, and as the
 * "tree" of every counted workload in the results file. Its layout is the
 * one it has always had: a document indented from column 0 wherever it is
 * embedded, one node per line, lists on one line, control characters in
 * strings as \u00XX.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json-write.h"
#include "report/consistency.h"
#include "report/tree.h"

static const char *kind_str(uint8_t k)
{
	switch (k) {
	case BT_NODE_TREE: return "tree";
	case BT_NODE_INFO: return "info";
	case BT_NODE_BOTTLENECK: return "bottleneck";
	default: return "helper";
	}
}

static const char *state_str(uint8_t s)
{
	switch (s) {
	case BT_NODE_OK: return "ok";
	case BT_NODE_INVALID: return "invalid";
	case BT_NODE_NO_RETIRE_LATENCY: return "not_measured";
	default: return "missing";
	}
}

static int shown(const struct bt_model *m, unsigned i, const struct bt_report_opts *o)
{
	const struct bt_node_def *n = bt_model_node(m, i);
	return n->kind != BT_NODE_TREE || !o->max_level || n->level <= o->max_level;
}

/* A string that is written as "" when absent (names always are strings). */
static const char *text(const char *s)
{
	return s ? s : "";
}

static void write_flag(struct bt_jw *j, const char *key, const struct bt_result *r, unsigned i)
{
	if (r->has_flag[i])
		bt_jw_bool(j, key, r->flag[i]);
	else
		bt_jw_null(j, key);
}

static void write_node(struct bt_jw *j, const struct bt_model *m, const struct bt_result *r,
		       const struct bt_report_opts *o, unsigned i)
{
	const struct bt_node_def *nd = bt_model_node(m, i);

	bt_jw_object_styled(j, text(nd->name), BT_JW_INLINE);
	bt_jw_double(j, "value", r->value[i]);
	/* not measured: no number at all (the formula's, with -1, is meaningless) */
	/* a negative zero (0 times a negative factor) is written as 0 */
	bt_jw_double(j, "raw", r->state[i] == BT_NODE_NO_RETIRE_LATENCY ? NAN
			       : r->raw[i] == 0 ? 0 : r->raw[i]);
	bt_jw_str(j, "kind", kind_str(nd->kind));
	bt_jw_u64(j, "level", nd->level);
	bt_jw_str(j, "parent", nd->parent);
	/* Left out on purpose (drill-down, --level N) or not measured for want
	 * of a retire latency: the same state, told apart by the reason. */
	bool left_out = nd->kind == BT_NODE_TREE && bt_tree_not_measured(r, o, i);
	bt_jw_str(j, "state", left_out ? "not_measured" : state_str(r->state[i]));
	if (!left_out && r->state[i] == BT_NODE_NO_RETIRE_LATENCY) {
		/* the reason, and the latencies behind it (EVENT:R, perf's spelling) */
		uint16_t *rl = malloc((bt_model_retire_latency_count(m) + 1) * sizeof(*rl));
		unsigned n = rl ? bt_result_node_latencies(r, i, rl) : 0;
		bt_jw_str(j, "reason", "no retire latency");
		bt_jw_array_styled(j, "retire_latency_not_measured", BT_JW_INLINE);
		for (unsigned k = 0; k < n; k++)
			bt_jw_str(j, NULL, bt_model_retire_latency_name(m, rl[k]));
		bt_jw_end(j);
		free(rl);
	}
	/* what the value rests on where the formula reads retire latencies */
	if (!left_out && r->latency[i] != BT_LAT_NONE)
		bt_jw_str(j, "latency", bt_node_latency_name((enum bt_node_latency)r->latency[i]));
	write_flag(j, "thresh", r, i);
	if (nd->threshold_literal)
		bt_jw_bool(j, "thresh_literal", r->flag_literal[i]);
	if (!isnan(r->cpi_share[i]))
		bt_jw_double(j, "cpi_share", r->cpi_share[i]);
	if (o->untrusted && o->untrusted[i].event[0]) {
		bt_jw_object(j, "untrusted");
		bt_jw_str(j, "event", o->untrusted[i].event);
		bt_jw_str(j, "check", o->untrusted[i].check);
		bt_jw_str(j, "verdict", o->untrusted[i].verdict);
		bt_jw_end(j);
	}
	bt_jw_end(j);
}

void bt_report_json_write(struct bt_jw *j, const char *key, const struct bt_model *m,
			  const struct bt_result *r, const struct bt_report_opts *o)
{
	const struct bt_model_def *def = bt_model_def(m);
	unsigned n = bt_model_node_count(m);

	bt_jw_object_styled(j, key, BT_JW_DOCUMENT | BT_JW_ESCAPE_U);
	bt_jw_str(j, "model", text(def->id));
	bt_jw_str(j, "model_source", text(def->source));
	bt_jw_str(j, "input", text(o->input_label));
	/* Why nodes have the state "not_measured" (left out on purpose). */
	if (o->targeted)
		bt_jw_str(j, "not_measured", text(o->untargeted_why));
	int perf = o->perf_latency_values;
	unsigned n_no_rl = 0;
	for (unsigned i = 0; i < n; i++)
		n_no_rl += shown(m, i, o) && r->state[i] == BT_NODE_NO_RETIRE_LATENCY;
	if (perf && n_no_rl)
		bt_jw_str(j, "values_latency", "perf: a retire latency not measured is -1 in \"values\" "
			  "and \"thresh\" (the reference vectors' definition); see each node's state");
	bt_jw_object_styled(j, "values", BT_JW_BREAK_EMPTY);
	for (unsigned i = 0; i < n; i++) {
		if (!shown(m, i, o))
			continue;
		double v = r->value[i];
		if (perf && r->state[i] == BT_NODE_NO_RETIRE_LATENCY)
			v = bt_model_node(m, i)->percent ? r->raw[i] / 100 : r->raw[i];
		bt_jw_double(j, text(bt_model_node(m, i)->name), v);
	}
	bt_jw_end(j);
	bt_jw_object_styled(j, "thresh", BT_JW_BREAK_EMPTY);
	for (unsigned i = 0; i < n; i++)
		if (shown(m, i, o) && r->has_flag[i])
			bt_jw_bool(j, text(bt_model_node(m, i)->name),
				   perf ? r->formula_flag[i] : r->flag[i]);
	bt_jw_end(j);
	bt_jw_object_styled(j, "nodes", BT_JW_BREAK_EMPTY);
	for (unsigned i = 0; i < n; i++)
		if (shown(m, i, o))
			write_node(j, m, r, o, i);
	bt_jw_end(j);
	bt_jw_array_styled(j, "bottleneck_path", BT_JW_INLINE);
	for (unsigned k = 0; k < r->path_len; k++)
		bt_jw_str(j, NULL, text(bt_model_node(m, r->path[k])->name));
	bt_jw_end(j);
	/* How the path was taken: through flagged nodes (the vendor's
	 * thresholds), or by the largest share where the vendor has none. */
	bt_jw_str(j, "bottleneck_path_rule", r->path_largest_share ? BT_PATH_LARGEST_SHARE
								     : "flagged nodes (the vendor's thresholds)");
	bt_jw_double(j, "cpi", r->cpi);
	bt_jw_str(j, "cpi_node", def->cpi_node);
	bt_jw_array_styled(j, "missing_events", BT_JW_INLINE);
	for (unsigned k = 0; k < r->n_missing_events; k++)
		bt_jw_str(j, NULL, text(bt_model_event(m, r->missing_events[k])->name));
	bt_jw_end(j);
	bt_jw_array_styled(j, "missing_constants", BT_JW_INLINE);
	for (int k = 0; k < BT_CONST_COUNT; k++)
		if (r->missing_constants >> k & 1)
			bt_jw_str(j, NULL, bt_constant_name((enum bt_constant)k));
	bt_jw_end(j);
	bt_jw_u64(j, "retire_latency_defaults_used", r->n_default_retire_latency);
	if (r->smt.formulas >= 0) {
		/* HYPERTHREADING_ON decided by the measured SMT sibling
		 * (metrics/model.h bt_smt_decide). */
		bt_jw_object(j, "smt");
		bt_jw_double(j, "sibling_active", r->smt.sibling_active);
		bt_jw_u64(j, "hyperthreading_on", (uint64_t)r->smt.formulas);
		bt_jw_str(j, "formulas", r->smt.formulas ? "SMT branches" : "per-thread branches");
		bt_jw_double(j, "core_clks_error", r->smt.error);
		bt_jw_double(j, "core_clks_error_max", BT_SMT_FORMULA_ERROR_MAX);
		bt_jw_bool(j, "flagged", r->smt.flagged);
		bt_jw_end(j);
	}
	/* nodes by what their values rest on (the nodes' "latency") */
	bt_jw_object_styled(j, "latency_nodes", BT_JW_INLINE);
	for (int k = BT_LAT_MEASURED; k < BT_LAT_COUNT; k++)
		bt_jw_u64(j, bt_node_latency_name((enum bt_node_latency)k), r->n_latency[k]);
	bt_jw_end(j);
	if (o->counts && bt_model_retire_latency_count(m)) {
		const struct bt_counts *c = o->counts;
		bt_jw_object(j, "retire_latency");
		for (unsigned i = 0; i < bt_model_retire_latency_count(m); i++) {
			bool given = c->retire_latency_source[i] != BT_RL_NONE;
			bt_jw_object_styled(j, bt_model_retire_latency_name(m, i), BT_JW_INLINE);
			bt_jw_double(j, "mean", given ? c->retire_latency[i] : NAN);
			bt_jw_str(j, "source", bt_rl_source_name((enum bt_rl_source)c->retire_latency_source[i]));
			if (o->rl_measured_by && c->retire_latency_source[i] == BT_RL_MEASURED)
				bt_jw_str(j, "detail", o->rl_measured_by);
			bt_jw_end(j);
		}
		bt_jw_end(j);
	}
	if (o->consistency)
		bt_report_consistency_json(j, "consistency", o->consistency, r);
	bt_jw_end(j);
}

bt_status bt_report_json(FILE *f, const struct bt_model *m, const struct bt_result *r,
			 const struct bt_report_opts *o)
{
	struct bt_strbuf sb = { 0 };
	struct bt_jw j;
	bt_status st = BT_OK;

	bt_jw_init(&j, &sb);
	bt_report_json_write(&j, NULL, m, r, o);
	if (sb.oom || j.overflow)
		st = sb.oom ? BT_ERR_NOMEM : BT_ERR_INTERNAL;
	else if (fwrite(bt_sb_str(&sb), 1, sb.n, f) != sb.n || ferror(f))
		st = BT_ERR_IO;
	bt_sb_free(&sb);
	return st;
}

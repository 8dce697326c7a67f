/* SPDX-License-Identifier: MIT */
/*
 * Loading a model (metrics/load.h): the events files a recipe names, then
 * its metrics files through the format's loader (load-perfmon.c or
 * load-perf.c), then the CPI node and assembling the struct bt_model_def
 * (with the model's published retire latencies, metrics/rl-published.h). The helpers both loaders share are in
 * load-common.c, so the calls go one way: load.c -> loaders -> load-common.c.
 */
#include "metrics/load-internal.h"
#include "metrics/model-pack.h"
#include "metrics/rl-published.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int cmp_event(const void *x, const void *y)
{
	return strcmp(((const struct bt_event *)x)->name, ((const struct bt_event *)y)->name);
}

static bt_status finish(struct loader *ld)
{
	struct bt_model_def *def = ld->def;
	/* CPI for the CPI stack */
	const char *cpi = NULL;
	static const char *const cpi_names[] = { "Info_Thread_CPI", "Info_Core_CPI" };
	for (size_t i = 0; i < 2 && !cpi; i++)
		if (bt_ld_find_node(ld, cpi_names[i]))
			cpi = cpi_names[i];
	if (!cpi && ld->r->cpi_formula) {
		struct bt_node_def n = { .name = "CPI", .kind = BT_NODE_HELPER };
		bt_status s = bt_ld_formula(ld, BT_DIALECT_CANON, ld->r->cpi_formula, "CPI",
					    BT_NODE_HELPER, "formula", NULL, NULL, NULL, &n.formula);
		if (s != BT_OK || (s = bt_ld_add_node(ld, &n)) != BT_OK)
			return s;
		cpi = "CPI";
	}
	def->cpi_node = cpi;
	bt_status ts = bt_ld_check_tree(ld);
	if (ts != BT_OK)
		return ts;
	if (ld->n_nodes > 0xFFFF || ld->n_used > 0xFFFF) {
		bt_diag_set(ld->d, "model %s: too many nodes or events", ld->r->id);
		return BT_ERR_FULL;
	}
	struct bt_node_def *nodes = bt_arena_alloc(ld->a, (ld->n_nodes + 1) * sizeof(*nodes));
	struct bt_event *events = bt_arena_alloc(ld->a, (ld->n_used + 1) * sizeof(*events));
	if (!nodes || !events)
		return bt_ld_nomem(ld);
	if (ld->n_nodes)
		memcpy(nodes, ld->nodes, ld->n_nodes * sizeof(*nodes));
	for (size_t i = 0; i < ld->n_used; i++)
		events[i] = ld->used[i].ev;
	qsort(events, ld->n_used, sizeof(*events), cmp_event);
	def->nodes = nodes;
	def->n_nodes = (uint16_t)ld->n_nodes;
	def->events = events;
	def->n_events = (uint16_t)ld->n_used;
	if (ld->uses_perf_metrics)
		def->flags |= BT_MODEL_PERF_METRICS;
	if (ld->uses_retire_latency)
		def->flags |= BT_MODEL_RETIRE_LATENCY;
	def->source = ld->source;
	return bt_rl_published_set(ld->a, def) == BT_OK ? BT_OK : bt_ld_nomem(ld);
}

bt_status bt_model_load_ex(struct bt_arena *a, const struct bt_model_recipe *r, const char *root,
			   const struct bt_name_spelling *names, unsigned n_names,
			   struct bt_model_def **ret_def, struct bt_load_notes *notes,
			   struct bt_diag *d)
{
	struct loader ld = { .a = a, .r = r, .root = root, .d = d, .notes = notes,
			     .names = names, .n_names = n_names };
	if (notes)
		notes->n = 0;
	ld.def = bt_arena_alloc(a, sizeof(*ld.def));
	if (!ld.def)
		return bt_ld_nomem(&ld);
	ld.def->id = r->id;
	ld.def->vendor = r->vendor;
	ld.def->uarch = r->uarch;
	ld.def->pipeline_width = r->pipeline_width;
	bt_status s = BT_OK;
	for (int i = 0; i < BT_RECIPE_MAX_FILES && r->events[i] && s == BT_OK; i++) {
		const char *path = bt_ld_path(&ld, r->events[i]);
		if (!path)
			s = bt_ld_nomem(&ld);
		else if (r->format == BT_FMT_PERFMON || !strcmp(r->vendor, "GenuineIntel"))
			s = bt_events_load_intel(a, path, &ld.table, d);
		else
			s = bt_events_load_perf(a, path, &ld.table, d);
	}
	if (s == BT_OK)
		s = r->format == BT_FMT_PERFMON ? bt_ld_perfmon(&ld) : bt_ld_perf(&ld);
	if (s == BT_OK)
		s = finish(&ld);
	bt_ld_free(&ld);
	if (s != BT_OK)
		return s;
	*ret_def = ld.def;
	return BT_OK;
}

bt_status bt_model_load_noted(struct bt_arena *a, const struct bt_model_recipe *r, const char *root,
			      struct bt_model_def **ret_def, struct bt_load_notes *notes,
			      struct bt_diag *d)
{
	/* the generated spellings, their strings in the packed models' pool */
	const struct bt_pack_tables *t = &bt_pack_builtin;
	struct bt_name_spelling *names = bt_arena_alloc(a, (bt_tma_name_count + 1u) * sizeof(*names));
	if (!names) {
		bt_diag_set(d, "out of memory");
		return BT_ERR_NOMEM;
	}
	for (unsigned i = 0; i < bt_tma_name_count; i++) {
		const struct bt_pack_spelling *p = &bt_tma_names_packed[i];
		if (p->spelled >= t->strings_size) {
			bt_diag_set(d, "perf-name spellings: string offset out of range");
			return BT_ERR_INTERNAL;
		}
		const char *spelled = t->strings + p->spelled;
		char *lower = bt_arena_strdup(a, spelled);
		if (!lower) {
			bt_diag_set(d, "out of memory");
			return BT_ERR_NOMEM;
		}
		for (char *c = lower; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		names[i] = (struct bt_name_spelling){ lower, spelled, p->family };
	}
	return bt_model_load_ex(a, r, root, names, bt_tma_name_count, ret_def, notes, d);
}

bt_status bt_model_load(struct bt_arena *a, const struct bt_model_recipe *r, const char *root,
			struct bt_model_def **ret_def, struct bt_diag *d)
{
	return bt_model_load_noted(a, r, root, ret_def, NULL, d);
}

/* SPDX-License-Identifier: MIT */
/* The report's view of one counted workload: report-view.h. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "metrics/builtin.h"
#include "metrics/model.h"
#include "analysis/report-view.h"

enum bt_l1_category bt_l1_category_of(const char *name)
{
	static const char *const names[BT_L1_COUNT] = { "frontend_bound", "bad_speculation",
							"backend_bound", "retiring" };
	for (int c = 0; c < BT_L1_COUNT; c++)
		if (name && !strcasecmp(name, names[c]))
			return (enum bt_l1_category)c;
	return BT_L1_OTHER;
}

const char *bt_l1_category_label(enum bt_l1_category c)
{
	static const char *const labels[BT_L1_COUNT + 1] = { "Frontend Bound", "Bad Speculation",
							     "Backend Bound", "Retiring", "Other" };
	return labels[c <= BT_L1_COUNT ? c : BT_L1_COUNT];
}

const struct bt_view_node *bt_view_find(const struct bt_view *v, const char *name)
{
	for (size_t i = 0; i < v->n_nodes; i++)
		if (!strcmp(v->nodes[i].name, name))
			return &v->nodes[i];
	return NULL;
}

static double num_or_nan(const struct bt_json *v)
{
	return v && v->type == BT_JSON_NUMBER ? v->u.num.value : NAN;
}

/* Tree nodes depth first, parents before children, in the document's order. */
static void walk(struct bt_view *v, const struct bt_json *nodes, const char *parent,
		 enum bt_l1_category cat, int depth, bool exact)
{
	/* a hostile file's repeated keys could reach a node twice: stop at n */
	for (size_t i = 0; depth < 16 && i < nodes->u.obj.n && v->n_nodes < nodes->u.obj.n; i++) {
		const struct bt_json *nd = nodes->u.obj.values[i];
		const char *kind = bt_json_get_str(nd, "kind"), *p = bt_json_get_str(nd, "parent");
		if (!kind || strcmp(kind, "tree") || (parent ? !p || strcmp(p, parent) : p != NULL))
			continue;
		struct bt_view_node *o = &v->nodes[v->n_nodes++];
		const struct bt_json *th = bt_json_get(nd, "thresh");
		o->name = nodes->u.obj.keys[i];
		o->parent = p;
		double lv;
		o->level = bt_json_num_in(nd, "level", 0, BT_RESULTS_MAX_LEVEL, 1, depth + 1, &lv, NULL) == BT_OK
				   ? (unsigned)lv
				   : (unsigned)depth + 1;
		o->value = num_or_nan(bt_json_get(nd, "value"));
		o->state = bt_json_get_str(nd, "state");
		if (!o->state)
			o->state = "";
		o->rl_not_measured = bt_json_member(nd, "retire_latency_not_measured", BT_JSON_ARRAY);
		o->flag = th && th->type == BT_JSON_TRUE;
		o->cpi_share = num_or_nan(bt_json_get(nd, "cpi_share"));
		o->latency = bt_json_get_str(nd, "latency");
		const struct bt_json *ut = bt_json_member(nd, "untrusted", BT_JSON_OBJECT);
		if (ut) {
			const char *vd = bt_json_get_str(ut, "verdict");
			o->untrusted_event = bt_json_get_str(ut, "event");
			o->untrusted_check = bt_json_get_str(ut, "check");
			if (!o->untrusted_event)
				o->untrusted_event = "?";
			if (!o->untrusted_check)
				o->untrusted_check = "?";
			o->untrusted_verdict = vd ? vd : "FAIL";
		}
		o->lo = o->hi = o->value;
		o->category = parent ? cat : bt_l1_category_of(o->name);
		/* The console's node set (report/tree-text.c): every node but
		 * those not measured on purpose (a node not measured for want
		 * of a retire latency names the latencies, and is listed). A file whose tree does not say
		 * which those are (no "not_measured": older files) wrote them as
		 * "missing" without a value: those are left out then, as before. */
		o->listed = (strcmp(o->state, "not_measured") != 0 || o->rl_not_measured) &&
			    (exact || !isnan(o->value) || strcmp(o->state, "missing") != 0);
		walk(v, nodes, o->name, o->category, depth + 1, exact);
	}
}

static void widen(struct bt_view_node *n, double x)
{
	if (isnan(x))
		return;
	if (isnan(n->lo) || x < n->lo)
		n->lo = x;
	if (isnan(n->hi) || x > n->hi)
		n->hi = x;
}

static void set_inputs(struct bt_counts *c, const struct bt_json *counted, const struct bt_json *events)
{
	bt_counts_reset(c);
	for (size_t i = 0; i < events->u.obj.n; i++)
		bt_counts_set_event(c, events->u.obj.keys[i],
				    bt_json_num(events->u.obj.values[i], "median", NAN));
	const struct bt_json *k = bt_json_member(counted, "constants", BT_JSON_OBJECT);
	for (size_t i = 0; k && i < k->u.obj.n; i++)
		if (k->u.obj.values[i]->type == BT_JSON_NUMBER)
			bt_counts_set_constant(c, k->u.obj.keys[i], k->u.obj.values[i]->u.num.value);
	k = bt_json_member(counted, "retire_latency", BT_JSON_OBJECT);
	for (size_t i = 0; k && i < k->u.obj.n; i++) {
		/* format 3: {"mean": m, ...}; format 2: a number */
		const struct bt_json *v = k->u.obj.values[i];
		const struct bt_json *mean = v->type == BT_JSON_OBJECT ? bt_json_get(v, "mean") : v;
		if (mean && mean->type == BT_JSON_NUMBER)
			bt_counts_set_retire_latency(c, k->u.obj.keys[i], mean->u.num.value);
	}
}

/* Re-evaluates the built-in model one event at a time at its min and max
 * (report-view.h says why). Leaves lo = hi = value when it cannot. */
static void derive_spread(struct bt_arena *a, struct bt_view *v)
{
	const struct bt_results_workload *w = v->w;
	const struct bt_model_def *def = w->model ? bt_builtin_find(w->model) : NULL;
	struct bt_model *m = NULL;
	struct bt_diag d = { "" };
	if (!w->events) {
		v->spread_note = "spread not derived: the workload has no per-event statistics";
		return;
	}
	if (!def || bt_model_open(def, &m, &d) != BT_OK) {
		v->spread_note = "spread not derived: the model is not a built-in one (vendor files), "
				 "so its formulas cannot be evaluated here";
		return;
	}
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	int *node_idx = bt_arena_alloc(a, (v->n_nodes + 1) * sizeof(int));
	if (!c || !r || !node_idx) {
		v->spread_note = "spread not derived: out of memory";
		goto out;
	}
	for (size_t i = 0; i < v->n_nodes; i++)
		node_idx[i] = bt_model_node_find(m, v->nodes[i].name);
	const struct bt_json *ev = w->events;
	set_inputs(c, w->counted, ev);
	/* the medians must give the file's own values back, or the spread
	 * would be measured around another tree */
	bt_evaluate(m, c, r);
	for (size_t i = 0; i < v->n_nodes; i++) {
		double x = v->nodes[i].value, y = node_idx[i] >= 0 ? r->value[node_idx[i]] : NAN;
		if (!isnan(x) && !(fabs(x - y) <= 1e-9 * fmax(1, fabs(x)))) {
			v->spread_note = bt_arena_printf(a, "spread not derived: the model evaluated with the "
							    "medians does not give the file's value of %s",
							 v->nodes[i].name);
			goto out;
		}
	}
	for (size_t e = 0; e < ev->u.obj.n; e++) {
		const struct bt_json *s = ev->u.obj.values[e];
		double lo = bt_json_num(s, "min", NAN), hi = bt_json_num(s, "max", NAN);
		double med = bt_json_num(s, "median", NAN);
		int k = bt_model_event_find(m, ev->u.obj.keys[e]);
		if (k < 0 || isnan(lo) || isnan(hi) || lo == hi)
			continue;
		for (int end = 0; end < 2; end++) {
			c->events[k] = end ? hi : lo;
			bt_evaluate(m, c, r);
			for (size_t i = 0; i < v->n_nodes; i++)
				if (node_idx[i] >= 0 && !isnan(v->nodes[i].value))
					widen(&v->nodes[i], r->value[node_idx[i]]);
		}
		c->events[k] = med;
	}
	v->spread_known = true;
	v->spread_note = "spread: the model evaluated with one event at a time at its min and at its "
			 "max over the runs, the others at their medians";
out:
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
}

bt_status bt_view_build(struct bt_arena *a, const struct bt_results_doc *doc,
			const struct bt_results_workload *w, struct bt_view *v, struct bt_diag *d)
{
	memset(v, 0, sizeof(*v));
	v->doc = doc;
	v->w = w;
	v->cpi = num_or_nan(bt_json_get(w->tree, "cpi"));
	const struct bt_json *nodes = bt_json_member(w->tree, "nodes", BT_JSON_OBJECT);
	if (!nodes) {
		bt_diag_set(d, "%s: workload %s: the counted workload has no tree", doc->path, w->label);
		return BT_ERR_INVALID;
	}
	v->nodes = bt_arena_alloc(a, (nodes->u.obj.n + 1) * sizeof(*v->nodes));
	if (!v->nodes)
		return BT_ERR_NOMEM;
	memset(v->nodes, 0, (nodes->u.obj.n + 1) * sizeof(*v->nodes));
	walk(v, nodes, NULL, BT_L1_OTHER, 0, bt_json_get(w->tree, "not_measured") != NULL);
	const char *rule = bt_json_get_str(w->tree, "bottleneck_path_rule");
	v->path_largest_share = rule && !strncmp(rule, "largest share", 13);
	const struct bt_json *path = bt_json_member(w->tree, "bottleneck_path", BT_JSON_ARRAY);
	for (size_t i = 0; path && i < path->u.arr.n; i++) {
		const char *p = bt_json_str(path->u.arr.items[i]);
		for (size_t k = 0; p && k < v->n_nodes; k++)
			if (!strcmp(v->nodes[k].name, p))
				v->nodes[k].on_path = true;
	}
	derive_spread(a, v);
	return BT_OK;
}

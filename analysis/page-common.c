/* SPDX-License-Identifier: MIT */
/* What the three report formats share (page.h): provenance, level 1, run checks. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/page.h"
#include "base/array.h"
#include "report/tree.h"

const char *bt_page_provenance(const struct bt_results_doc *doc)
{
	return doc->simulated ? "SIMULATED" : doc->replayed ? "replayed" : "measured";
}

void bt_page_provenance_line(struct bt_strbuf *out, const struct bt_results_doc *doc)
{
	const char *pmu = bt_json_get_str(doc->counting, "pmu");
	const char *what = bt_json_get_str(doc->counting, "simulated_counts");
	const char *brand = bt_json_get_str(bt_json_get(doc->root, "cpu"), "brand");
	const char *counted_by = bt_json_get_str(doc->counting, "counted_by");
	if (doc->replayed) {
		bt_sb_printf(out, "%sreplayed: evaluated again from a count file, nothing measured now; %s",
			     doc->simulated ? "SIMULATED and " : "", doc->input);
	} else if (doc->simulated) {
		bt_sb_printf(out, "SIMULATED: counts of baretop's simulated PMU%s%s%s, not measured on hardware",
			     pmu ? " (" : "", pmu ? pmu : "", pmu ? ")" : "");
		if (what)
			bt_sb_printf(out, "; %s", what);
	} else if (doc->n_counted && counted_by && counted_by[0]) {
		/* An operating system's driver counted (--backend=perf): the
		 * counts are real, the programming is not baretop's. */
		bt_sb_printf(out, "measured: %s; the PMU of %s%s%s%s", counted_by, brand ? brand : "the CPU",
			     pmu ? " (" : "", pmu ? pmu : "", pmu ? ")" : "");
	} else if (doc->n_counted) {
		bt_sb_printf(out, "measured: counted by the PMU of %s%s%s%s", brand ? brand : "the CPU",
			     pmu ? " (" : "", pmu ? pmu : "", pmu ? ")" : "");
	} else {
		bt_sb_printf(out, "no counts: %s",
			     doc->not_counted_reason ? doc->not_counted_reason : "no workload was counted");
	}
}

void bt_page_level1(const struct bt_view *v, double out[BT_L1_SLOTS])
{
	for (int c = 0; c < BT_L1_SLOTS; c++)
		out[c] = NAN;
	for (size_t i = 0; i < v->n_nodes; i++) {
		const struct bt_view_node *n = &v->nodes[i];
		if (n->level != 1 || isnan(n->value))
			continue;
		if (n->category < BT_L1_COUNT)
			out[n->category] = n->value;
		else
			out[BT_L1_OTHER] = (isnan(out[BT_L1_OTHER]) ? 0 : out[BT_L1_OTHER]) + n->value;
	}
}

/* A whole number from 0 to UINT_MAX, else 0: the loader refused files
 * with anything else (results-read.c), so 0 is for hand-built trees. */
static unsigned whole(const struct bt_json *o, const char *key)
{
	double x;
	return bt_json_num_in(o, key, 0, UINT_MAX, 1, 0, &x, NULL) == BT_OK ? (unsigned)x : 0;
}

size_t bt_page_steps(const struct bt_view *v, struct bt_page_step *out, size_t cap)
{
	const struct bt_json *steps = v->w->steps;
	size_t n = 0;
	for (size_t i = 0; steps && i < steps->u.arr.n && n < cap; i++) {
		const struct bt_json *s = steps->u.arr.items[i];
		struct bt_page_step *o = &out[n++];
		memset(o, 0, sizeof(*o));
		o->level = whole(s, "level");
		o->nodes = whole(s, "nodes");
		o->events = whole(s, "events");
		o->groups = whole(s, "groups");
		o->lower_bound = whole(s, "lower_bound");
		o->runs = whole(s, "runs");
		o->retried = whole(s, "retried");
		o->flagged = whole(s, "flagged");
		o->inst_min = bt_json_num(s, "instructions_min", NAN);
		o->inst_median = bt_json_num(s, "instructions_median", NAN);
		o->inst_max = bt_json_num(s, "instructions_max", NAN);
		o->agreement = o->inst_median > 0 ? (o->inst_max - o->inst_min) / o->inst_median : NAN;
		const struct bt_json *fr = bt_json_get(s, "smm_frozen");
		o->smm_frozen = fr && fr->type == BT_JSON_TRUE ? 1 : fr && fr->type == BT_JSON_FALSE ? 0 : -1;
		const struct bt_json *log = bt_json_member(s, "run_log", BT_JSON_ARRAY);
		for (size_t k = 0; log && k < log->u.arr.n; k++) {
			unsigned smi = whole(log->u.arr.items[k], "smi");
			o->smis = smi > UINT_MAX - o->smis ? UINT_MAX : o->smis + smi;
		}
	}
	return n;
}

void bt_page_rule_counts(const struct bt_view *v, unsigned *held, unsigned *violated, unsigned *na)
{
	*held = *violated = *na = 0;
	const struct bt_json *c = v->w->consistency;
	for (size_t i = 0; c && i < c->u.arr.n; i++) {
		const char *st = bt_json_get_str(c->u.arr.items[i], "state");
		if (!st)
			continue;
		if (!strcmp(st, "held"))
			(*held)++;
		else if (!strcmp(st, "violated"))
			(*violated)++;
		else
			(*na)++;
	}
}

const char *bt_page_state_text(const struct bt_view_node *n, char *buf, size_t size)
{
	if (strcmp(n->state, "not_measured") != 0 || !size)
		return n->state;
	/* No latency named: the node was left out on purpose, as the tree
	 * says (report-view.c: beyond --level N, or a drill-down that did
	 * not reach it), not for want of a latency. */
	if (!n->rl_not_measured || !n->rl_not_measured->u.arr.n) {
		snprintf(buf, size, "not measured (not selected: --level N or drill-down)");
		return buf;
	}
	size_t at = (size_t)snprintf(buf, size, "not measured (no retire latency");
	for (size_t k = 0; n->rl_not_measured && k < n->rl_not_measured->u.arr.n && at < size; k++) {
		const struct bt_json *e = n->rl_not_measured->u.arr.items[k];
		if (e->type == BT_JSON_STRING)
			at += (size_t)snprintf(buf + at, size - at, "%s %s:R", k ? "," : ":", e->u.str.s);
	}
	if (at < size)
		snprintf(buf + at, size - at, ")");
	return buf;
}

size_t bt_page_latencies(const struct bt_view *v, const char **names, double *mean, char (*text)[240],
			 size_t cap)
{
	const struct bt_json *rl = v->w->counted ? bt_json_member(v->w->counted, "retire_latency", BT_JSON_OBJECT)
						 : NULL;
	size_t n = 0;
	for (size_t i = 0; rl && i < rl->u.obj.n && n < cap; i++) {
		const struct bt_json *e = rl->u.obj.values[i];
		const char *src = e->type == BT_JSON_OBJECT ? bt_json_get_str(e, "source") : "given";
		const char *detail = e->type == BT_JSON_OBJECT ? bt_json_get_str(e, "detail") : NULL;
		double m = e->type == BT_JSON_NUMBER ? e->u.num.value : bt_json_num(e, "mean", NAN);
		double samples = bt_json_num(e, "samples", NAN), mn = bt_json_num(e, "min", NAN),
		       mx = bt_json_num(e, "max", NAN);
		size_t at;
		names[n] = rl->u.obj.keys[i];
		mean[n] = m;
		if (isnan(m))
			at = (size_t)snprintf(text[n], sizeof(text[n]), "not measured: the formula's fallback, "
					      "or the node is not measured");
		else
			at = (size_t)snprintf(text[n], sizeof(text[n]), "%.2f cycles, %s", m, src ? src : "?");
		if (at < sizeof(text[n]) && !isnan(samples))
			at += (size_t)snprintf(text[n] + at, sizeof(text[n]) - at,
					       " (%.0f samples, median %.0f, min %.0f, max %.0f, %.0f saturated)",
					       samples, bt_json_num(e, "median", NAN), mn, mx,
					       bt_json_num(e, "saturated", NAN));
		else if (at < sizeof(text[n]) && !isnan(mn) && !isnan(mx))
			at += (size_t)snprintf(text[n] + at, sizeof(text[n]) - at, " (min %.0f, max %.0f)", mn, mx);
		if (at < sizeof(text[n]) && detail)
			snprintf(text[n] + at, sizeof(text[n]) - at, "; %s", detail);
		n++;
	}
	return n;
}

int bt_page_listed(const struct bt_view_node *n)
{
	return n->listed;
}

const char *bt_page_no_value(const struct bt_view_node *n)
{
	if (!n || !n->listed)
		return NULL;
	return !strcmp(n->state, "invalid") ? "n/a" : !strcmp(n->state, "missing") ? "missing" : NULL;
}

size_t bt_page_unlisted(const struct bt_view *v)
{
	size_t n = 0;
	for (size_t i = 0; i < v->n_nodes; i++)
		n += !bt_page_listed(&v->nodes[i]);
	return n;
}

const char *bt_latency_phrase(const char *name)
{
	static const struct {
		const char *name, *phrase;
	} p[] = {
		{ "measured", "measured retire latencies (timed PEBS)" },
		{ "given", "retire latencies given with the counts" },
		{ "file", "retire latencies from --retire-latency-file" },
		{ "published", "a published mean retire latency (not measured)" },
		{ "cap", "the formula's own cap (a retire latency not given)" },
		{ "not_measured", "a retire latency not given, and no fallback: no value" },
	};
	for (unsigned i = 0; name && i < BT_ARRAY_SIZE(p); i++)
		if (!strcmp(p[i].name, name))
			return p[i].phrase;
	return "?";
}

void bt_page_latency_counts(const struct bt_view *v, struct bt_strbuf *sb)
{
	unsigned n[BT_LAT_COUNT] = { 0 };
	for (size_t i = 0; i < v->n_nodes; i++)
		for (int k = BT_LAT_MEASURED; v->nodes[i].latency && bt_page_listed(&v->nodes[i]) &&
					      k < BT_LAT_COUNT; k++)
			n[k] += !strcmp(v->nodes[i].latency, bt_node_latency_name((enum bt_node_latency)k));
	bt_latency_counts_text(sb, n);
}

void bt_page_doc_tag(const struct bt_page *p, const struct bt_results_doc *doc, char *buf, size_t len)
{
	size_t i = (size_t)(doc - p->docs);
	if (p->n_docs < 2)
		snprintf(buf, len, "%s", "");
	else if (p->diff && i < 2)
		snprintf(buf, len, "%s", i ? "B" : "A");
	else
		snprintf(buf, len, "%zu", i + 1);
}

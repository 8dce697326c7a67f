/* SPDX-License-Identifier: MIT */
/*
 * The host-side report as CSV (page.h), for spreadsheets. One table:
 *
 *   section,file,workload,name,level,value,min,median,max,flag,detail
 *
 * section    what the row is: provenance, model, perturbed, node, cpi, cpi_stack,
 *            event, check, rules, plan, not_counted (README.md lists each
 *            section's columns)
 * value      tree nodes as fractions (0.25 = 25 %), counts as counts
 *
 * With a diff (results-diff.h) the table is the diff instead:
 *
 *   workload,node,level,a,a_lo,a_hi,b,b_lo,b_hi,difference,verdict,note (a side not measured for want of a retire latency: why)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/page.h"

#define MAX_STEPS 16

static void field(struct bt_strbuf *o, const char *s, int last)
{
	if (!s)
		s = "";
	if (strpbrk(s, ",\"\r\n")) {
		bt_sb_putc(o, '"');
		for (; *s; s++) {
			if (*s == '"')
				bt_sb_putc(o, '"');
			bt_sb_putc(o, *s);
		}
		bt_sb_putc(o, '"');
	} else {
		bt_sb_puts(o, s);
	}
	bt_sb_putc(o, last ? '\n' : ',');
}

static void numf(struct bt_strbuf *o, double v, int last)
{
	char b[40] = "";
	if (!isnan(v))
		snprintf(b, sizeof(b), "%.17g", v);
	field(o, b, last);
}

static void row(struct bt_strbuf *o, const char *section, const struct bt_view *v, const char *file,
		const char *name, int level, double value, double mn, double md, double mx, const char *flag,
		const char *detail)
{
	char lv[16] = "";
	if (level >= 0)
		snprintf(lv, sizeof(lv), "%d", level);
	field(o, section, 0);
	field(o, file, 0);
	field(o, v ? v->w->label : "", 0);
	field(o, name, 0);
	field(o, lv, 0);
	numf(o, value, 0);
	numf(o, mn, 0);
	numf(o, md, 0);
	numf(o, mx, 0);
	field(o, flag, 0);
	field(o, detail, 1);
}

static void workload(struct bt_strbuf *o, const struct bt_view *v, struct bt_arena *a)
{
	const char *f = v->doc->path;
	char det[320];
	const char *tma = bt_results_tma_version(a, v->w->model_source);
	snprintf(det, sizeof(det), "TMA version %s; formulas: %s", tma ? tma : "not said",
		 v->w->model_source ? v->w->model_source : "not said");
	row(o, "model", v, f, v->w->model, -1, NAN, NAN, NAN, NAN, "", det);
	if (v->w->perturbed)
		row(o, "perturbed", v, f, v->w->cpu, -1, NAN, NAN, NAN, NAN, "PERTURBED",
		    v->w->perturbed);
	for (size_t i = 0; i < v->n_nodes; i++) {
		const struct bt_view_node *n = &v->nodes[i];
		if (!bt_page_listed(n))
			continue;
		char st[200];
		const char *state = bt_page_state_text(n, st, sizeof(st));
		if (!isnan(n->cpi_share))
			snprintf(det, sizeof(det), "%s; CPI share %.17g", state, n->cpi_share);
		else
			snprintf(det, sizeof(det), "%s", state);
		if (n->on_path && v->path_largest_share) {
			size_t u = strlen(det);
			snprintf(det + u, sizeof(det) - u, "; bottleneck path by largest share (the "
				 "vendor defines no thresholds)");
		}
		row(o, "node", v, f, n->name, (int)n->level, n->value, n->lo, n->value, n->hi,
		    n->on_path ? "<==" : n->flag ? "*" : "", det);
	}
	row(o, "cpi", v, f, "CPI", -1, v->cpi, NAN, NAN, NAN, "", "cycles per instruction");
	double l1[BT_L1_SLOTS];
	bt_page_level1(v, l1);
	for (int c = 0; c < BT_L1_SLOTS; c++)
		if (c < BT_L1_COUNT || !isnan(l1[c]))
			row(o, "cpi_stack", v, f, bt_l1_category_label(c), 1, isnan(l1[c]) || isnan(v->cpi) ? NAN : l1[c] * v->cpi,
		    NAN, NAN, NAN, "", "level-1 share x CPI");
	const struct bt_json *ev = v->w->events;
	for (size_t i = 0; ev && i < ev->u.obj.n; i++) {
		const struct bt_json *e = ev->u.obj.values[i];
		double md = bt_json_num(e, "median", NAN);
		snprintf(det, sizeof(det), "group %.0f", bt_json_num(e, "group", -1));
		row(o, "event", v, f, ev->u.obj.keys[i], -1, md, bt_json_num(e, "min", NAN), md,
		    bt_json_num(e, "max", NAN), "", det);
	}
	{
		enum { CAP = 64 };
		const char *names[CAP];
		double mean[CAP];
		char text[CAP][240]; /* 15 KB: host-only code, on the stack */
		size_t nrl = bt_page_latencies(v, names, mean, text, CAP);
		for (size_t i = 0; i < nrl; i++) {
			char name[200];
			snprintf(name, sizeof(name), "%s:R", names[i]);
			row(o, "retire_latency", v, f, name, -1, mean[i], NAN, NAN, NAN, "", text[i]);
		}
	}
	struct bt_page_step st[MAX_STEPS];
	size_t n = bt_page_steps(v, st, MAX_STEPS);
	for (size_t i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "step %zu", i + 1);
		snprintf(det, sizeof(det), "instruction agreement (max-min)/median; retried %u; flagged %u; SMIs %u; SMM frozen %s",
			 st[i].retried, st[i].flagged, st[i].smis,
			 st[i].smm_frozen > 0 ? "yes" : st[i].smm_frozen == 0 ? "no" : "-");
		row(o, "check", v, f, name, (int)st[i].level, st[i].agreement, st[i].inst_min, st[i].inst_median,
		    st[i].inst_max, "", det);
		snprintf(det, sizeof(det), "groups; lower bound %u; nodes %u; new events %u; runs %u",
			 st[i].lower_bound, st[i].nodes, st[i].events, st[i].runs);
		row(o, "plan", v, f, name, (int)st[i].level, st[i].groups, NAN, NAN, NAN, "", det);
	}
	const struct bt_json *cnt = v->doc->counting;
	const struct bt_json *pm = bt_json_get(cnt, "perf_metrics");
	snprintf(det, sizeof(det), "general counters; fixed counters %s; PERF_METRICS %s",
		 bt_json_get_str(cnt, "fixed_mask") ? bt_json_get_str(cnt, "fixed_mask") : "-",
		 pm && pm->type == BT_JSON_TRUE ? "yes" : "no");
	row(o, "plan", v, f, "counters", -1, bt_json_num(cnt, "general_counters", NAN), NAN, NAN, NAN, "", det);
	unsigned held, violated, na;
	bt_page_rule_counts(v, &held, &violated, &na);
	row(o, "rules", v, f, "held", -1, held, NAN, NAN, NAN, "", "consistency rules");
	row(o, "rules", v, f, "violated", -1, violated, NAN, NAN, NAN, "", "consistency rules");
	row(o, "rules", v, f, "not_applicable", -1, na, NAN, NAN, NAN, "", "consistency rules");
}

static void diff(struct bt_strbuf *o, const struct bt_diff *df)
{
	bt_sb_puts(o, "workload,node,level,a,a_lo,a_hi,b,b_lo,b_hi,difference,verdict,note\n");
	for (size_t i = 0; i < df->n_rows; i++) {
		const struct bt_diff_row *r = &df->rows[i];
		char lv[16];
		snprintf(lv, sizeof(lv), "%u", r->level);
		field(o, r->workload, 0);
		field(o, r->node, 0);
		field(o, lv, 0);
		numf(o, r->a, 0);
		numf(o, r->a_lo, 0);
		numf(o, r->a_hi, 0);
		numf(o, r->b, 0);
		numf(o, r->b_lo, 0);
		numf(o, r->b_hi, 0);
		numf(o, r->delta, 0);
		field(o, bt_diff_class_name(r->cls), 0);
		char note[600];
		snprintf(note, sizeof(note), "%s%s%s%s%s", r->a_why ? "A: " : "", r->a_why ? r->a_why : "",
			 r->a_why && r->b_why ? "; " : "", r->b_why ? "B: " : "", r->b_why ? r->b_why : "");
		field(o, note, 1);
	}
}

void bt_page_csv(struct bt_strbuf *out, const struct bt_page *p)
{
	if (p->diff) {
		diff(out, p->diff);
		return;
	}
	struct bt_arena a;
	bt_arena_init(&a);
	bt_sb_puts(out, "section,file,workload,name,level,value,min,median,max,flag,detail\n");
	for (size_t d = 0; d < p->n_docs; d++) {
		struct bt_strbuf line = { 0 };
		bt_page_provenance_line(&line, &p->docs[d]);
		row(out, "provenance", NULL, p->docs[d].path, bt_page_provenance(&p->docs[d]), -1, NAN, NAN, NAN,
		    NAN, "", bt_sb_str(&line));
		bt_sb_free(&line);
		for (size_t k = 0; k < p->n_views; k++)
			if (p->views[k].doc == &p->docs[d])
				workload(out, &p->views[k], &a);
		/* the workloads without a tree: name the CPU, state, why */
		for (size_t i = 0; i < p->docs[d].n_workloads; i++) {
			const struct bt_results_workload *w = &p->docs[d].workloads[i];
			if (w->counted)
				continue;
			struct bt_view nv = { .w = w, .doc = &p->docs[d] };
			row(out, "not_counted", &nv, p->docs[d].path, w->cpu, -1, NAN, NAN, NAN, NAN,
			    *w->state ? w->state : "?", w->reason);
		}
	}
	bt_arena_free(&a);
}

/* SPDX-License-Identifier: MIT */
/* The host-side report as text (page.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/page.h"
#include "report/tree.h"

#define MAX_STEPS 16

/* A node's spread as LO..HI%, or "-" where the file has no value. */
static void spread(struct bt_strbuf *o, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		bt_sb_printf(o, "%19s", "-");
	else
		bt_sb_printf(o, "%8.2f..%8.2f%%", lo * 100, hi * 100);
}

static void pct(struct bt_strbuf *o, double v)
{
	if (isnan(v))
		bt_sb_printf(o, "%8s", "-");
	else {
		char d[40];
		bt_sb_printf(o, "%7s%%", bt_pct_digits(d, sizeof(d), v * 100));
	}
}

static void doc_header(struct bt_strbuf *o, const struct bt_page *p, const struct bt_results_doc *doc,
		       struct bt_arena *a)
{
	const char *tma = bt_results_tma_version(a, doc->model_source);
	char tag[24];
	bt_page_doc_tag(p, doc, tag, sizeof(tag));
	bt_sb_printf(o, "== %s%s%s\n   ", tag, *tag ? ": " : "", doc->path);
	bt_page_provenance_line(o, doc);
	bt_sb_printf(o, "\n   model %s%s%s%s, TMA version %s\n   formulas: %s\n", doc->model ? doc->model : "-",
		     doc->uarch ? " (" : "", doc->uarch ? doc->uarch : "", doc->uarch ? ")" : "",
		     tma ? tma : "not said", doc->model_source ? doc->model_source : "not said");
}

static void tree(struct bt_strbuf *o, const struct bt_view *v)
{
	bt_sb_printf(o, "  tree (* flagged, <== bottleneck path; spread = %s):\n",
		     v->spread_known ? "lo..hi over the events' min/max" : "not derived");
	bt_sb_printf(o, "  %-5s %-44s %8s %19s %4s %9s\n", "level", "node", "value", "spread", "flag",
		     "CPI share");
	for (size_t i = 0; i < v->n_nodes; i++) {
		const struct bt_view_node *n = &v->nodes[i];
		char name[64];
		if (!bt_page_listed(n))
			continue;
		snprintf(name, sizeof(name), "%*s%s", (int)(2 * (n->level - 1 < 10 ? n->level - 1 : 10)), "",
			 n->name);
		bt_sb_printf(o, "  %-5u %-44s ", n->level, name);
		pct(o, n->value);
		char st[200];
		if (isnan(n->value))
			bt_sb_printf(o, " %19s", bt_page_state_text(n, st, sizeof(st)));
		else {
			char lo[40], hi[40];
			bt_sb_printf(o, " %8s..%7s%%", bt_pct_digits(lo, sizeof(lo), n->lo * 100),
				     bt_pct_digits(hi, sizeof(hi), n->hi * 100));
		}
		bt_sb_printf(o, " %4s", n->on_path ? "<==" : n->flag ? "*" : "");
		if (!isnan(n->cpi_share))
			bt_sb_printf(o, " %9.4f", n->cpi_share);
		bt_sb_putc(o, '\n');
		if (n->untrusted_event)
			bt_sb_printf(o, "        %*suntrusted: %s %s (%s)\n",
				     (int)(2 * (n->level - 1 < 10 ? n->level - 1 : 10)), "",
				     n->untrusted_event, bt_untrust_phrase(n->untrusted_verdict),
				     n->untrusted_check);
		if (n->latency && strcmp(n->latency, "not_measured"))
			bt_sb_printf(o, "        %*srests on %s\n", (int)(2 * (n->level - 1 < 10 ? n->level - 1 : 10)),
				     "", bt_latency_phrase(n->latency));
	}
	if (bt_page_unlisted(v))
		bt_sb_printf(o, "  (%zu deeper nodes not measured: not listed)\n",
			     bt_page_unlisted(v));
	struct bt_strbuf lat = { 0 };
	bt_page_latency_counts(v, &lat);
	if (lat.n)
		bt_sb_printf(o, "  %s\n", bt_sb_str(&lat));
	bt_sb_free(&lat);
	bt_sb_puts(o, "  bottleneck path:");
	int any = 0;
	for (size_t i = 0; i < v->n_nodes; i++)
		if (v->nodes[i].on_path)
			bt_sb_printf(o, "%s %s", any++ ? " >" : "", v->nodes[i].name);
	if (any && v->path_largest_share)
		bt_sb_puts(o, " -- largest share (the vendor defines no thresholds)");
	bool untrusted_flag = false;
	for (size_t i = 0; i < v->n_nodes; i++)
		untrusted_flag |= v->nodes[i].level == 1 && v->nodes[i].flag && v->nodes[i].untrusted_event;
	bt_sb_puts(o, any ? "\n" : untrusted_flag ? " none (the flagged level-1 nodes are untrusted)\n"
					       : " none (no level-1 node flagged)\n");
}

static void cpi_stack(struct bt_strbuf *o, const struct bt_view *v)
{
	double l1[BT_L1_SLOTS];
	bt_page_level1(v, l1);
	if (isnan(v->cpi)) {
		bt_sb_puts(o, "  CPI stack: CPI not known\n");
		return;
	}
	bt_sb_printf(o, "  CPI stack (level-1 share x CPI): CPI %.4f =", v->cpi);
	for (int c = 0; c < BT_L1_SLOTS; c++)
		if (c < BT_L1_COUNT || !isnan(l1[c]))
			/* a share below 0 is no component (metrics/eval.c
			 * stack_weight), never a "-0.0000" */
			bt_sb_printf(o, "%s %s %.4f", c ? " +" : "", bt_l1_category_label(c),
				     isnan(l1[c]) || l1[c] < 0 ? 0 : l1[c] * v->cpi);
	bt_sb_putc(o, '\n');
	bt_sb_puts(o, "  CPI share of the bottleneck path:");
	for (size_t i = 0; i < v->n_nodes; i++) {
		if (!v->nodes[i].on_path)
			continue;
		if (isnan(v->nodes[i].cpi_share)) {
			/* the stack splits a parent among all its children or
			 * none (metrics/eval.c): it stops above this one */
			bt_sb_printf(o, " %s n/a (a sibling has no share: the stack stops above it)",
				     v->nodes[i].name);
			break;
		}
		bt_sb_printf(o, " %s %.4f", v->nodes[i].name, v->nodes[i].cpi_share);
	}
	bt_sb_putc(o, '\n');
}

static void events(struct bt_strbuf *o, const struct bt_view *v)
{
	const struct bt_json *ev = v->w->events;
	bt_sb_printf(o, "  events (over the kept runs, overhead-corrected; spread = (max - min) / median):\n");
	bt_sb_printf(o, "  %-52s %5s %14s %14s %14s %8s\n", "event", "group", "min", "median", "max", "spread");
	for (size_t i = 0; ev && i < ev->u.obj.n; i++) {
		const struct bt_json *e = ev->u.obj.values[i];
		double mn = bt_json_num(e, "min", NAN), md = bt_json_num(e, "median", NAN),
		       mx = bt_json_num(e, "max", NAN);
		bt_sb_printf(o, "  %-52s %5.0f %14.0f %14.0f %14.0f ", ev->u.obj.keys[i],
			     bt_json_num(e, "group", -1), mn, md, mx);
		if (md > 0)
			bt_sb_printf(o, "%7.3f%%\n", (mx - mn) / md * 100);
		else
			bt_sb_printf(o, "%8s\n", "-");
	}
}

static void checks_and_plan(struct bt_strbuf *o, const struct bt_view *v)
{
	struct bt_page_step st[MAX_STEPS];
	size_t n = bt_page_steps(v, st, MAX_STEPS);
	const struct bt_json *cnt = v->doc->counting;
	double tol = bt_json_num(cnt, "tolerance", NAN);
	bt_sb_printf(o, "  run checks (instructions must agree within %.3g%%; a run outside is retried):\n",
		     tol * 100);
	bt_sb_printf(o, "  %5s %6s %14s %14s %14s %10s %7s %7s %5s %10s\n", "step", "level", "inst min",
		     "inst median", "inst max", "agreement", "retried", "flagged", "SMIs", "SMM frozen");
	for (size_t i = 0; i < n; i++) {
		/* no agreement where no instructions were counted (a step
		 * whose nodes needed no new group): "n/a", as the HTML's dash */
		char agree[24] = "n/a";
		if (!isnan(st[i].agreement))
			snprintf(agree, sizeof(agree), "%.4f%%", st[i].agreement * 100);
		bt_sb_printf(o, "  %5zu %6u %14.0f %14.0f %14.0f %10s %7u %7u %5u %10s\n", i + 1,
			     st[i].level, st[i].inst_min, st[i].inst_median, st[i].inst_max, agree,
			     st[i].retried, st[i].flagged, st[i].smis,
			     st[i].smm_frozen > 0 ? "yes" : st[i].smm_frozen == 0 ? "no" : "-");
	}
	unsigned held, violated, na;
	bt_page_rule_counts(v, &held, &violated, &na);
	bt_sb_printf(o, "  consistency rules: %u held, %u violated, %u not applicable\n", held, violated, na);
	const struct bt_json *c = v->w->consistency;
	for (size_t i = 0; c && i < c->u.arr.n; i++) {
		const struct bt_json *r = c->u.arr.items[i];
		const char *s = bt_json_get_str(r, "state");
		if (s && !strcmp(s, "violated"))
			bt_sb_printf(o, "    violated: %s (difference %g, tolerance %g)\n",
				     bt_json_get_str(r, "rule") ? bt_json_get_str(r, "rule") : "?",
				     bt_json_num(r, "difference", NAN), bt_json_num(r, "tolerance", NAN));
	}
	const char *fixed = bt_json_get_str(cnt, "fixed_mask");
	const struct bt_json *pm = bt_json_get(cnt, "perf_metrics");
	bt_sb_printf(o, "  plan: %.0f general counters, fixed counters %s, PERF_METRICS %s, nodes %s, "
			"%.0f warm-up(s) + %.0f runs per group, %.0f groups in all\n",
		     bt_json_num(cnt, "general_counters", NAN), fixed ? fixed : "-",
		     pm && pm->type == BT_JSON_TRUE ? "yes" : "no",
		     bt_json_get_str(cnt, "nodes") ? bt_json_get_str(cnt, "nodes") : "-",
		     bt_json_num(cnt, "warmups", NAN), bt_json_num(cnt, "reps", NAN),
		     bt_json_num(v->w->counted, "groups", NAN));
	bt_sb_printf(o, "  %5s %6s %6s %7s %7s %12s %5s\n", "step", "level", "nodes", "events", "groups",
		     "lower bound", "runs");
	for (size_t i = 0; i < n; i++)
		bt_sb_printf(o, "  %5zu %6u %6u %7u %7u %12u %5u\n", i + 1, st[i].level, st[i].nodes,
			     st[i].events, st[i].groups, st[i].lower_bound, st[i].runs);
}

/* Each retire-latency input the formulas used, with its source. */
static void latencies(struct bt_strbuf *o, const struct bt_view *v)
{
	enum { CAP = 64 };
	const char *names[CAP];
	double mean[CAP];
	char text[CAP][240]; /* 15 KB: host-only code, on the stack */
	size_t n = bt_page_latencies(v, names, mean, text, CAP);
	if (!n)
		return;
	bt_sb_printf(o, "  retire latencies (%zu inputs; source in the order tried: measured, file, published, "
		     "the formula's fallback):\n", n);
	for (size_t i = 0; i < n; i++)
		bt_sb_printf(o, "    %s:R %s\n", names[i], text[i]);
}

static void workload(struct bt_strbuf *o, const struct bt_view *v)
{
	double l1[BT_L1_SLOTS];
	bt_page_level1(v, l1);
	bt_sb_printf(o, "\n-- workload %s (%s) on CPU %s [%s], model %s\n", v->w->label, v->w->params,
		     v->w->cpu,
		     v->w->simulated ? (v->doc->replayed ? "SIMULATED, replayed" : "SIMULATED")
				     : v->doc->replayed ? "replayed" : "measured", v->w->model ? v->w->model : "-");
	bt_sb_puts(o, "  level 1:");
	for (int c = 0; c < BT_L1_SLOTS; c++) {
		if (c == BT_L1_OTHER && isnan(l1[c]))
			continue;
		bt_sb_printf(o, "  %s ", bt_l1_category_label(c));
		if (isnan(l1[c]))
			bt_sb_puts(o, "-");
		else {
			char d[40];
			bt_sb_printf(o, "%s%%", bt_pct_digits(d, sizeof(d), l1[c] * 100));
		}
	}
	bt_sb_putc(o, '\n');
	if (v->w->perturbed)
		bt_sb_printf(o, "  %s%s\n", strncmp(v->w->perturbed, "PERTURBED", 9) ? "PERTURBED: " : "",
			     v->w->perturbed);
	tree(o, v);
	cpi_stack(o, v);
	latencies(o, v);
	events(o, v);
	checks_and_plan(o, v);
}

/* The counter health check of each measured CPU (run.counter_health_by_cpu),
 * when more than one CPU was checked or one failed: which counters each
 * CPU's trees were counted without. */
static void health_by_cpu(struct bt_strbuf *o, const struct bt_results_doc *doc)
{
	const struct bt_json *h = bt_json_get(doc->run, "counter_health_by_cpu");
	bool fail = false;

	if (!h || h->type != BT_JSON_ARRAY || !h->u.arr.n)
		return;
	for (size_t i = 0; i < h->u.arr.n; i++) {
		const char *v = bt_json_get_str(h->u.arr.items[i], "verdict");
		fail |= v && strcmp(v, "PASS") != 0;
	}
	if (h->u.arr.n < 2 && !fail)
		return;
	bt_sb_puts(o, "\ncounter health, each measured CPU's own:\n");
	for (size_t i = 0; i < h->u.arr.n; i++) {
		const struct bt_json *c = h->u.arr.items[i], *cs = bt_json_get(c, "counters");
		double cpu = -1;
		if (bt_json_value_in(bt_json_get(c, "cpu"), "cpu", 0, 1e9, 1, -1, &cpu, NULL) != BT_OK)
			cpu = -1;
		const char *v = bt_json_get_str(c, "verdict");
		bt_sb_printf(o, "  CPU %.0f: %s", cpu, v ? v : "?");
		for (size_t k = 0; cs && cs->type == BT_JSON_ARRAY && k < cs->u.arr.n; k++) {
			const struct bt_json *x = cs->u.arr.items[k];
			const char *xv = bt_json_get_str(x, "verdict"), *why = bt_json_get_str(x, "why");
			if (xv && strcmp(xv, "PASS") != 0)
				bt_sb_printf(o, "; %s %s%s%s", bt_json_get_str(x, "counter") ?
					     bt_json_get_str(x, "counter") : "counter", xv,
					     why ? ": " : "", why ? why : "");
		}
		bt_sb_putc(o, '\n');
	}
}

/* The document's workloads without a tree (left out, skipped, failed,
 * timed only), with their CPU and why. */
static void not_counted(struct bt_strbuf *o, const struct bt_results_doc *doc)
{
	for (size_t i = 0; i < doc->n_workloads; i++) {
		const struct bt_results_workload *w = &doc->workloads[i];
		if (w->counted)
			continue;
		bt_sb_printf(o, "\n-- workload %s on CPU %s: not counted: %s%s%s\n", w->label, w->cpu,
			     *w->state ? w->state : "?", *w->reason ? ": " : "", w->reason);
	}
}

/* Workload x node: rows are the tree nodes of the first workload that has
 * each, columns the workloads. */
static void heat(struct bt_strbuf *o, const struct bt_page *p)
{
	bt_sb_puts(o, "\n== workload x node (value in percent; - = not measured, n/a = division by "
		      "zero, missing = an input not counted; a column ending in ! is PERTURBED)\n");
	/* each column as wide as the widest header, whole: "name@cpu12" must
	 * not lose its CPU */
	int w = 14;
	for (size_t k = 0; k < p->n_views; k++) {
		char tag[24], col[96];
		bt_page_doc_tag(p, p->views[k].doc, tag, sizeof(tag));
		snprintf(col, sizeof(col), "%s%s%s%s", tag, *tag ? ":" : "", p->views[k].w->label,
			 p->views[k].w->perturbed ? "!" : "");
		if ((int)strlen(col) > w)
			w = (int)strlen(col);
	}
	bt_sb_printf(o, "  %-36s", "node");
	for (size_t k = 0; k < p->n_views; k++) {
		char tag[24], col[96];
		bt_page_doc_tag(p, p->views[k].doc, tag, sizeof(tag));
		snprintf(col, sizeof(col), "%s%s%s%s", tag, *tag ? ":" : "", p->views[k].w->label,
			 p->views[k].w->perturbed ? "!" : "");
		bt_sb_printf(o, " %*s", w, col);
	}
	bt_sb_putc(o, '\n');
	for (size_t k = 0; k < p->n_views; k++) {
		for (size_t i = 0; i < p->views[k].n_nodes; i++) {
			const struct bt_view_node *n = &p->views[k].nodes[i];
			int seen = 0;
			for (size_t j = 0; j < p->n_views && !seen; j++) {
				const struct bt_view_node *m = bt_view_find(&p->views[j], n->name);
				seen = m && bt_page_listed(m);
			}
			seen = !seen;
			for (size_t j = 0; j < k && !seen; j++)
				seen = bt_view_find(&p->views[j], n->name) != NULL;
			if (seen)
				continue;
			char name[64];
			snprintf(name, sizeof(name), "%*s%s", (int)(2 * (n->level - 1 < 10 ? n->level - 1 : 10)),
				 "", n->name);
			bt_sb_printf(o, "  %-36s", name);
			for (size_t j = 0; j < p->n_views; j++) {
				const struct bt_view_node *m = bt_view_find(&p->views[j], n->name);
				if (!m || isnan(m->value))
					bt_sb_printf(o, " %*s", w, bt_page_no_value(m) ? bt_page_no_value(m) : "-");
				else {
					char d[40];
					bt_sb_printf(o, " %*s%s", w - 1, bt_pct_digits(d, sizeof(d), m->value * 100),
						     m->on_path ? "<" : m->flag ? "*" : " ");
				}
			}
			bt_sb_putc(o, '\n');
		}
	}
}

static void diff(struct bt_strbuf *o, const struct bt_diff *df)
{
	bt_sb_printf(o, "== diff: A = %s, B = %s\n", df->path_a ? df->path_a : "-", df->path_b ? df->path_b : "-");
	bt_sb_printf(o, "   %zu workload(s) compared: %zu node(s) beyond the run-to-run spread, %zu within it, "
			"%zu not judged, %zu the same, %zu only in A, %zu only in B\n",
		     df->n_workloads, df->n_class[BT_DIFF_BEYOND], df->n_class[BT_DIFF_WITHIN],
		     df->n_class[BT_DIFF_UNJUDGED], df->n_class[BT_DIFF_SAME], df->n_class[BT_DIFF_ONLY_A],
		     df->n_class[BT_DIFF_ONLY_B]);
	bt_sb_puts(o, "   beyond spread = each value outside the other's spread (every event at its min and "
		      "max over the runs, one at a time)\n");
	for (size_t i = 0; i < df->n_paths; i++) {
		const struct bt_diff_path *pp = &df->paths[i];
		bt_sb_printf(o, "   workload %s: bottleneck path %s: A %s%s, B %s%s\n", pp->workload,
			     strcmp(pp->a, pp->b) ? "CHANGED" : "the same",
			     pp->a[0] ? pp->a : "none", pp->a_share ? " (largest share)" : "",
			     pp->b[0] ? pp->b : "none", pp->b_share ? " (largest share)" : "");
		if (pp->a_share || pp->b_share)
			bt_sb_puts(o, "     largest share (the vendor defines no thresholds): the path "
				      "follows the largest node per level\n");
	}
	for (size_t i = 0; i < df->n_only_a; i++)
		bt_sb_printf(o, "   workload %s: counted in A only\n", df->only_a[i]);
	for (size_t i = 0; i < df->n_only_b; i++)
		bt_sb_printf(o, "   workload %s: counted in B only\n", df->only_b[i]);
	bt_sb_printf(o, "  %-22s %-36s %9s %9s %9s  %-21s %-21s %s\n", "workload", "node", "A", "B", "B - A",
		     "A spread", "B spread", "verdict");
	for (size_t i = 0; i < df->n_rows; i++) {
		const struct bt_diff_row *r = &df->rows[i];
		if (r->cls == BT_DIFF_SAME || r->cls == BT_DIFF_NEITHER)
			continue;
		bt_sb_printf(o, "  %-22s %-36s ", r->workload, r->node);
		pct(o, r->a);
		bt_sb_putc(o, ' ');
		pct(o, r->b);
		bt_sb_putc(o, ' ');
		if (isnan(r->delta))
			bt_sb_printf(o, "%9s", "-");
		else
			bt_sb_printf(o, "%+8.2f%%", r->delta * 100);
		bt_sb_puts(o, "  ");
		spread(o, r->a_lo, r->a_hi);
		bt_sb_puts(o, "  ");
		spread(o, r->b_lo, r->b_hi);
		bt_sb_printf(o, "  %s", bt_diff_class_name(r->cls));
		if (r->a_why)
			bt_sb_printf(o, " (A: %s)", r->a_why);
		if (r->b_why)
			bt_sb_printf(o, " (B: %s)", r->b_why);
		bt_sb_putc(o, '\n');
	}
	bt_sb_printf(o, "   (%zu node(s) with equal values not listed)\n", df->n_class[BT_DIFF_SAME]);
}

void bt_page_text(struct bt_strbuf *out, const struct bt_page *p)
{
	struct bt_arena a;
	bt_arena_init(&a);
	bt_sb_printf(out, "baretop report: %zu results file(s), %zu counted workload(s)\n", p->n_docs, p->n_views);
	size_t n_sim = 0, n_rep = 0;
	for (size_t i = 0; i < p->n_docs; i++) {
		n_sim += p->docs[i].simulated;
		n_rep += p->docs[i].replayed;
	}
	if (n_sim)
		bt_sb_puts(out, "SIMULATED: counts of baretop's simulated PMU are in this report, "
				"not measurements of hardware\n");
	if (n_rep)
		bt_sb_puts(out, "REPLAYED: trees evaluated again from count files are in this report; "
				"nothing was measured for it\n");
	if (!n_sim && !n_rep && p->n_views)
		bt_sb_puts(out, "MEASURED on hardware: counted by the CPU's own PMU\n");
	if (p->diff)
		diff(out, p->diff);
	if (p->diff && p->diff_only)
		goto done;
	if (p->n_views > 1)
		heat(out, p);
	for (size_t d = 0; d < p->n_docs; d++) {
		bt_sb_putc(out, '\n');
		doc_header(out, p, &p->docs[d], &a);
		for (size_t k = 0; k < p->n_views; k++)
			if (p->views[k].doc == &p->docs[d])
				workload(out, &p->views[k]);
		health_by_cpu(out, &p->docs[d]);
		not_counted(out, &p->docs[d]);
	}
done:
	bt_arena_free(&a);
}

/* SPDX-License-Identifier: MIT */
/*
 * The host-side report as one self-contained HTML page (page.h): inline
 * CSS and SVG only. No script, font, image or link leaves the file, and the
 * Content-Security-Policy meta tag (default-src 'none'; style-src
 * 'unsafe-inline') makes the browser block and log anything that would.
 * Every string from a results file goes through bt_html_escape().
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/html-escape.h"
#include "analysis/page.h"
#include "analysis/svg-bar.h"
#include "report/tree.h"

#define MAX_STEPS 16

/* One color per level-1 category, the same in every chart and table. */
static const char *const l1_color[BT_L1_SLOTS] = { "#4e79a7", "#e15759", "#f28e2b", "#59a14f", "#9c9c9c" };
static const unsigned l1_rgb[BT_L1_SLOTS] = { 0x4e79a7, 0xe15759, 0xf28e2b, 0x59a14f, 0x9c9c9c };

static const char css[] =
	"*{box-sizing:border-box}"
	"body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif;"
	"color:#1d2330;background:#f4f5f7}"
	"main{max-width:1240px;margin:0 auto;padding:0 20px 40px}"
	".banner{padding:14px 20px;font-size:17px;font-weight:700;letter-spacing:.01em;border-bottom:4px solid}"
	".banner small{display:block;font-weight:400;font-size:13px;margin-top:2px}"
	".sim{background:#fff1c2;color:#6b4400;border-color:#e0a100}"
	".measured{background:#dff3e3;color:#174d24;border-color:#3c9a52}"
	".nocount{background:#eceff3;color:#333;border-color:#999}"
	".replay{background:#e3ecfb;color:#173a73;border-color:#3a6fc4}"
	"h1{font-size:24px;margin:22px 0 4px}"
	"h2{font-size:20px;margin:0 0 2px}"
	"h3{font-size:14px;margin:16px 0 6px;text-transform:uppercase;letter-spacing:.05em;color:#4a5366}"
	".meta{color:#4a5366;margin:0 0 14px}"
	".card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:16px 20px;margin:18px 0;"
	"box-shadow:0 1px 2px rgba(0,0,0,.04)}"
	".doc{border-left:6px solid #e0a100}"
	".doc.m{border-left-color:#3c9a52}"
	".tag{display:inline-block;font-size:12px;font-weight:700;padding:1px 8px;border-radius:10px;"
	"vertical-align:middle;margin-left:6px}"
	".tag.sim{background:#e0a100;color:#fff}.tag.measured{background:#3c9a52;color:#fff}"
	".tag.replay{background:#3a6fc4;color:#fff}"
	".params{font-weight:400;color:#4a5366;font-size:15px}"
	".path{margin:4px 0 10px}.path b{color:#b3261e}"
	".cols{display:flex;gap:28px;align-items:flex-start;flex-wrap:wrap}"
	".cols>.tree{flex:1 1 640px;min-width:0}.cols>.cpi{flex:0 0 300px}"
	".grid{display:grid;grid-template-columns:1fr 1fr;gap:8px 28px}"
	"table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}"
	"th,td{padding:3px 8px;text-align:left;border-bottom:1px solid #edf0f4;white-space:nowrap}"
	"th{font-size:12px;color:#4a5366;font-weight:600;border-bottom:1px solid #c9ced8}"
	"td.n,th.n{text-align:right}"
	"tr.onpath td{background:#fde8e6;font-weight:600}"
	"tr.onpath td.nm{color:#b3261e}"
	".bar{height:10px;border-radius:2px;min-width:1px}"
	".barcell{width:200px}"
	".flag{font-weight:700;color:#b3261e}"
	".dim{color:#8a93a5}"
	"table.heat{width:auto;min-width:50%}.heat td{text-align:right;min-width:110px}.heat td.nm{text-align:left;min-width:240px}"
	".warn{color:#b3261e}.heat td.fl{font-weight:700}.heat td.pa{outline:2px solid #b3261e;outline-offset:-2px}"
	".badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;font-weight:600}"
	".b-beyond{background:#b3261e;color:#fff}.b-within{background:#e6e8ec;color:#333}"
	".b-other{background:#fff1c2;color:#6b4400}"
	".note{color:#4a5366;font-size:13px}"
	"svg text{font-family:inherit}"
	"footer{color:#8a93a5;font-size:12px;margin-top:24px}";

static void esc(struct bt_strbuf *o, const char *s)
{
	bt_html_escape(o, s);
}

static void pct(struct bt_strbuf *o, double v, int decimals)
{
	if (isnan(v))
		bt_sb_puts(o, "<span class=\"dim\">&ndash;</span>");
	else if (v < 0 && v * 100 > -0.005) {
		char d[40];
		bt_sb_printf(o, "%s&#8239;%%", bt_pct_digits(d, sizeof(d), v * 100));
	} else {
		bt_sb_printf(o, "%.*f&#8239;%%", decimals, v * 100);
	}
}

/* The level-1 stacked bar: shares of the level-1 sum, labelled in percent,
 * an axis from 0 to 100 %, and a legend with each node's value. */
static void level1_bar(struct bt_strbuf *o, const struct bt_view *v)
{
	double l1[BT_L1_SLOTS];
	struct bt_bar_seg seg[BT_L1_SLOTS];
	const double x0 = 10, w = 980, y = 8, h = 40;
	bt_page_level1(v, l1);
	double total = bt_bar_layout(l1, BT_L1_SLOTS, x0, w, seg);
	bt_sb_printf(o, "<svg class=\"l1\" viewBox=\"0 0 1000 112\" width=\"100%%\" role=\"img\" "
			"aria-label=\"level-1 breakdown\">");
	bt_sb_printf(o, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#eef0f3\"/>", x0, y, w, h);
	for (int c = 0; c < BT_L1_SLOTS; c++) {
		if (seg[c].len <= 0)
			continue;
		bt_sb_printf(o, "<rect x=\"%.3f\" y=\"%g\" width=\"%.3f\" height=\"%g\" fill=\"%s\">"
				"<title>%s %.2f %%</title></rect>",
			     seg[c].start, y, seg[c].len, h, l1_color[c], bt_l1_category_label(c), l1[c] * 100);
		if (seg[c].len >= 56)
			bt_sb_printf(o, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\" fill=\"#fff\" "
					"font-size=\"15\" font-weight=\"700\">%.1f%%</text>",
				     seg[c].start + seg[c].len / 2, y + h / 2 + 5, l1[c] * 100);
	}
	/* axis */
	for (int t = 0; t <= 4; t++) {
		double x = x0 + w * t / 4;
		bt_sb_printf(o, "<line x1=\"%g\" x2=\"%g\" y1=\"%g\" y2=\"%g\" stroke=\"#8a93a5\"/>"
				"<text x=\"%g\" y=\"%g\" font-size=\"11\" fill=\"#4a5366\" text-anchor=\"%s\">%d%%</text>",
			     x, x, y + h, y + h + 5, x, y + h + 17, t == 0 ? "start" : t == 4 ? "end" : "middle", t * 25);
	}
	/* legend */
	double lx = x0;
	for (int c = 0; c < BT_L1_SLOTS; c++) {
		if (c == BT_L1_OTHER && isnan(l1[c]))
			continue;
		bt_sb_printf(o, "<rect x=\"%g\" y=\"%g\" width=\"13\" height=\"13\" rx=\"2\" fill=\"%s\"/>"
				"<text x=\"%g\" y=\"%g\" font-size=\"14\" fill=\"#1d2330\">%s <tspan font-weight=\"700\">",
			     lx, y + h + 31, l1_color[c], lx + 19, y + h + 42,
			     c == BT_L1_OTHER ? "Other level 1" : bt_l1_category_label(c));
		if (isnan(l1[c]))
			bt_sb_puts(o, "&#8211;");
		else
			bt_sb_printf(o, "%.1f%%", l1[c] * 100);
		bt_sb_puts(o, "</tspan></text>");
		lx += isnan(l1[BT_L1_OTHER]) ? 245 : 196;
	}
	bt_sb_puts(o, "</svg>");
	if (total > 0 && fabs(total - 1) > 0.01)
		bt_sb_printf(o, "<p class=\"note\">The level-1 nodes sum to %.2f %%: the bar shows their shares "
				"of that sum.</p>", total * 100);
}

static double nice_step(double max)
{
	double raw = max / 4, mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* The CPI stack: CPI split by the level-1 shares, bottom to top Retiring,
 * Frontend, Bad Speculation, Backend, on a cycles-per-instruction axis. */
static void cpi_stack(struct bt_strbuf *o, const struct bt_view *v)
{
	static const int order[BT_L1_SLOTS] = { BT_L1_RETIRING, BT_L1_FRONTEND, BT_L1_BAD_SPECULATION,
						BT_L1_BACKEND, BT_L1_OTHER };
	double l1[BT_L1_SLOTS], part[BT_L1_SLOTS];
	struct bt_bar_seg seg[BT_L1_SLOTS];
	bt_page_level1(v, l1);
	bt_sb_puts(o, "<h3>CPI stack</h3>");
	if (isnan(v->cpi) || v->cpi <= 0) {
		bt_sb_puts(o, "<p class=\"note\">CPI not known: no stack.</p>");
		return;
	}
	const double top = 30, bottom = 330, x = 64, bw = 70;
	double step = nice_step(v->cpi), axis = ceil(v->cpi / step - 1e-9) * step;
	double sum = 0;
	for (int k = 0; k < BT_L1_SLOTS; k++)
		part[k] = isnan(l1[order[k]]) || l1[order[k]] < 0 ? 0 : l1[order[k]], sum += part[k];
	double bar_len = (bottom - top) * (v->cpi / axis);
	/* shares of the level-1 sum, scaled to CPI; drawn upwards from the axis */
	bt_bar_layout(part, BT_L1_SLOTS, 0, bar_len, seg);
	bt_sb_printf(o, "<svg viewBox=\"0 0 300 370\" width=\"300\" height=\"370\" role=\"img\" "
			"aria-label=\"CPI stack\">");
	for (double t = 0; t <= axis + step / 2; t += step) {
		double yy = bottom - (bottom - top) * t / axis;
		bt_sb_printf(o, "<line x1=\"%g\" x2=\"%g\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"#e3e6eb\"/>"
				"<text x=\"%g\" y=\"%.2f\" font-size=\"11\" fill=\"#4a5366\" text-anchor=\"end\">%g</text>",
			     x - 4, x + bw + 6, yy, yy, x - 8, yy + 4, t);
	}
	bt_sb_printf(o, "<text x=\"14\" y=\"%g\" font-size=\"11\" fill=\"#4a5366\" text-anchor=\"middle\" "
			"transform=\"rotate(-90 14 %g)\">cycles per instruction</text>",
		     (top + bottom) / 2, (top + bottom) / 2);
	double last_label = bottom + 100;
	for (int k = 0; k < BT_L1_SLOTS; k++) {
		int c = order[k];
		if (c == BT_L1_OTHER && isnan(l1[c]))
			continue;
		double cpi_c = sum > 0 ? v->cpi * part[k] / sum : 0;
		double y1 = bottom - seg[k].start - seg[k].len;
		if (seg[k].len > 0)
			bt_sb_printf(o, "<rect x=\"%g\" y=\"%.2f\" width=\"%g\" height=\"%.2f\" fill=\"%s\">"
					"<title>%s %.3f cycles/instruction</title></rect>",
				     x, y1, bw, seg[k].len, l1_color[c], bt_l1_category_label(c), cpi_c);
		/* labels beside the bar, pushed up so they never overlap */
		double ly = y1 + seg[k].len / 2 + 4;
		if (ly > last_label - 15)
			ly = last_label - 15;
		last_label = ly;
		bt_sb_printf(o, "<line x1=\"%g\" x2=\"%g\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"%s\"/>"
				"<text x=\"%g\" y=\"%.2f\" font-size=\"12\" fill=\"#1d2330\">%s "
				"<tspan font-weight=\"700\">%.2f</tspan></text>",
			     x + bw, x + bw + 8, y1 + seg[k].len / 2, ly - 4, l1_color[c], x + bw + 11, ly,
			     bt_l1_category_label(c), cpi_c);
	}
	bt_sb_printf(o, "<text x=\"%g\" y=\"%.2f\" font-size=\"13\" font-weight=\"700\" text-anchor=\"middle\" "
			"fill=\"#1d2330\">CPI %.3f</text>",
		     x + bw / 2, bottom - bar_len - 8, v->cpi);
	bt_sb_printf(o, "<text x=\"%g\" y=\"%g\" font-size=\"11\" fill=\"#4a5366\" text-anchor=\"middle\">"
			"IPC %.3f</text></svg>",
		     x + bw / 2, bottom + 18, 1 / v->cpi);
	int any = 0;
	for (size_t i = 0; i < v->n_nodes; i++) {
		const struct bt_view_node *n = &v->nodes[i];
		if (!n->on_path || isnan(n->cpi_share))
			continue;
		if (!any++)
			bt_sb_puts(o, "<table><tr><th>bottleneck path</th><th class=\"n\">CPI share</th></tr>");
		bt_sb_puts(o, "<tr><td>");
		esc(o, n->name);
		bt_sb_printf(o, "</td><td class=\"n\">%.3f</td></tr>", n->cpi_share);
	}
	if (any)
		bt_sb_puts(o, "</table><p class=\"note\">A node's CPI share is its part of the CPI stack: level 1 its value &times; CPI, below that its parent's share split among the parent's children by their values, so children add up to their parent.</p>");
}

static void tree(struct bt_strbuf *o, const struct bt_view *v)
{
	bt_sb_puts(o, "<h3>Top-Down tree</h3><table class=\"tt\"><tr><th>node</th><th class=\"n\">value</th>"
		      "<th class=\"barcell\"></th><th class=\"n\">spread over runs</th><th>flag</th>"
		      "<th class=\"n\">CPI share</th></tr>");
	for (size_t i = 0; i < v->n_nodes; i++) {
		const struct bt_view_node *n = &v->nodes[i];
		unsigned indent = n->level > 1 ? (n->level - 1 < 10 ? n->level - 1 : 10) : 0;
		if (!bt_page_listed(n))
			continue;
		bt_sb_printf(o, "<tr%s><td class=\"nm\" style=\"padding-left:%upx\">", n->on_path ? " class=\"onpath\"" : "",
			     8 + 18 * indent);
		esc(o, n->name);
		if (n->untrusted_event) {
			bt_sb_puts(o, "<br><span class=\"dim\">untrusted: ");
			esc(o, n->untrusted_event);
			bt_sb_printf(o, " %s (", bt_untrust_phrase(n->untrusted_verdict));
			esc(o, n->untrusted_check);
			bt_sb_puts(o, ")</span>");
		}
		if (n->latency && strcmp(n->latency, "not_measured")) {
			bt_sb_puts(o, "<br><span class=\"dim\">rests on ");
			esc(o, bt_latency_phrase(n->latency));
			bt_sb_puts(o, "</span>");
		}
		bt_sb_puts(o, "</td><td class=\"n\">");
		pct(o, n->value, 2);
		bt_sb_puts(o, "</td><td class=\"barcell\">");
		if (!isnan(n->value)) {
			double wv = n->value < 0 ? 0 : n->value > 1 ? 1 : n->value;
			bt_sb_printf(o, "<div class=\"bar\" style=\"width:%.1f%%;background:%s;opacity:%s\"></div>",
				     wv * 100, l1_color[n->category], n->flag ? "1" : "0.45");
		}
		bt_sb_puts(o, "</td><td class=\"n\">");
		char st[200];
		if (isnan(n->value))
			esc(o, bt_page_state_text(n, st, sizeof(st)));
		else if (v->spread_known) {
			char lo[40], hi[40];
			bt_sb_printf(o, "%s&ndash;%s&#8239;%%", bt_pct_digits(lo, sizeof(lo), n->lo * 100),
				     bt_pct_digits(hi, sizeof(hi), n->hi * 100));
		} else {
			bt_sb_puts(o, "<span class=\"dim\">not derived</span>");
		}
		bt_sb_printf(o, "</td><td class=\"flag\">%s</td><td class=\"n\">",
			     n->on_path ? v->path_largest_share ? "&#9664; bottleneck (largest share)"
								: "&#9664; bottleneck"
					: n->flag ? "flagged" : "");
		if (!isnan(n->cpi_share))
			bt_sb_printf(o, "%.3f", n->cpi_share);
		bt_sb_puts(o, "</td></tr>");
	}
	bt_sb_puts(o, "</table><p class=\"note\">");
	struct bt_strbuf lat = { 0 };
	bt_page_latency_counts(v, &lat);
	if (lat.n) {
		esc(o, bt_sb_str(&lat));
		bt_sb_puts(o, ". ");
	}
	bt_sb_free(&lat);
	if (bt_page_unlisted(v))
		bt_sb_printf(o, "%zu deeper nodes not measured (drill-down opens only flagged nodes; "
				"--level N stops at level N): not listed. ", bt_page_unlisted(v));
	if (v->path_largest_share)
		bt_sb_puts(o, "Bottleneck path: largest share (the vendor defines no thresholds): "
			      "no node can be flagged, so the path is the largest child, level by level. ");
	else
		bt_sb_puts(o, "Flagged: the vendor threshold holds. "
			      "Bottleneck path: the largest flagged child, level by level. ");
	esc(o, v->spread_note);
	bt_sb_puts(o, ".</p>");
}

/* One event's min..max around its median on a shared scale of +-scale
 * (relative): a whisker with the median as a tick. */
static void whisker(struct bt_strbuf *o, double mn, double md, double mx, double scale)
{
	const double w = 160, mid = 80, half = 72;
	bt_sb_printf(o, "<svg width=\"%g\" height=\"14\" viewBox=\"0 0 %g 14\" aria-hidden=\"true\">"
			"<line x1=\"%g\" x2=\"%g\" y1=\"7\" y2=\"7\" stroke=\"#e3e6eb\"/>"
			"<line x1=\"%g\" x2=\"%g\" y1=\"2\" y2=\"12\" stroke=\"#c9ced8\"/>",
		     w, w, mid - half, mid + half, mid, mid);
	if (md > 0 && !isnan(mn) && !isnan(mx)) {
		double x0 = mid + half * fmax(-1, (mn - md) / md / scale);
		double x1 = mid + half * fmin(1, (mx - md) / md / scale);
		bt_sb_printf(o, "<rect x=\"%.2f\" y=\"4\" width=\"%.2f\" height=\"6\" rx=\"2\" fill=\"#4a5366\" "
				"opacity=\".55\"/><line x1=\"%g\" x2=\"%g\" y1=\"1\" y2=\"13\" stroke=\"#1d2330\" "
				"stroke-width=\"2\"/>",
			     x0, fmax(x1 - x0, 1.5), mid, mid);
	}
	bt_sb_puts(o, "</svg>");
}

static void events(struct bt_strbuf *o, const struct bt_view *v)
{
	const struct bt_json *ev = v->w->events;
	double scale = 0.01; /* +-1 % at least, else the widest event's reach */
	for (size_t i = 0; ev && i < ev->u.obj.n; i++) {
		const struct bt_json *e = ev->u.obj.values[i];
		double mn = bt_json_num(e, "min", NAN), md = bt_json_num(e, "median", NAN),
		       mx = bt_json_num(e, "max", NAN);
		if (md > 0 && !isnan(mn) && !isnan(mx))
			scale = fmax(scale, fmax((md - mn) / md, (mx - md) / md));
	}
	if (!ev) {
		bt_sb_puts(o, "<h3>Per-event spread over the runs</h3><p class=\"note\">No per-event statistics "
			      "(a replayed tree).</p>");
		return;
	}
	bt_sb_printf(o, "<h3>Per-event spread over the runs</h3><table><tr><th>event</th><th class=\"n\">group</th>"
			"<th class=\"n\">min</th><th class=\"n\">median</th><th class=\"n\">max</th>"
			"<th class=\"n\">(max&minus;min)/median</th><th>min&ndash;max around the median "
			"(&plusmn;%.3g&#8239;%%)</th></tr>",
		     scale * 100);
	for (size_t i = 0; i < ev->u.obj.n; i++) {
		const struct bt_json *e = ev->u.obj.values[i];
		double mn = bt_json_num(e, "min", NAN), md = bt_json_num(e, "median", NAN),
		       mx = bt_json_num(e, "max", NAN), g = bt_json_num(e, "group", -1);
		bt_sb_puts(o, "<tr><td>");
		esc(o, ev->u.obj.keys[i]);
		if (g < 0)
			bt_sb_puts(o, "</td><td class=\"n\">fixed");
		else
			bt_sb_printf(o, "</td><td class=\"n\">%.0f", g);
		bt_sb_printf(o, "</td><td class=\"n\">%.0f</td><td class=\"n\">%.0f</td><td class=\"n\">%.0f</td>"
				"<td class=\"n\">",
			     mn, md, mx);
		if (md > 0)
			bt_sb_printf(o, "%.3f&#8239;%%", (mx - mn) / md * 100);
		else
			bt_sb_puts(o, "<span class=\"dim\">&ndash;</span>");
		bt_sb_puts(o, "</td><td>");
		whisker(o, mn, md, mx, scale);
		bt_sb_puts(o, "</td></tr>");
	}
	bt_sb_puts(o, "</table><p class=\"note\">Counts are overhead-corrected (the empty-body calibration "
		      "subtracted); the tree is evaluated with the medians. Group: the counter group of its step "
		      "(fixed: a fixed counter, counted in every group).</p>");
}

static void checks(struct bt_strbuf *o, const struct bt_view *v)
{
	struct bt_page_step st[MAX_STEPS];
	size_t n = bt_page_steps(v, st, MAX_STEPS);
	double tol = bt_json_num(v->doc->counting, "tolerance", NAN);
	bt_sb_puts(o, "<div><h3>Run checks</h3><table><tr><th>step</th><th class=\"n\">level</th>"
		      "<th class=\"n\">instructions median</th><th class=\"n\">agreement</th>"
		      "<th class=\"n\">retried</th><th class=\"n\">flagged</th><th class=\"n\">SMIs</th>"
		      "<th>SMM freeze</th></tr>");
	for (size_t i = 0; i < n; i++) {
		bt_sb_printf(o, "<tr><td>%zu</td><td class=\"n\">%u</td><td class=\"n\">%.0f</td><td class=\"n\">",
			     i + 1, st[i].level, st[i].inst_median);
		if (isnan(st[i].agreement))
			bt_sb_puts(o, "<span class=\"dim\">&ndash;</span>");
		else
			bt_sb_printf(o, "%.4f&#8239;%%", st[i].agreement * 100);
		bt_sb_printf(o, "</td><td class=\"n\">%u</td><td class=\"n%s\">%u</td><td class=\"n\">%u</td><td>%s</td></tr>",
			     st[i].retried, st[i].flagged ? " flag" : "", st[i].flagged, st[i].smis,
			     st[i].smm_frozen > 0 ? "frozen" : st[i].smm_frozen == 0 ? "not frozen" : "&ndash;");
	}
	unsigned held, violated, na;
	bt_page_rule_counts(v, &held, &violated, &na);
	bt_sb_printf(o, "</table><p class=\"note\">Agreement: (max&minus;min)/median of instructions retired over "
			"the step's runs; a run off by more than %.3g&#8239;%% is retried. Consistency rules: "
			"<b>%u held</b>, <b%s>%u violated</b>, %u not applicable.</p>",
		     tol * 100, held, violated ? " class=\"flag\"" : "", violated, na);
	const struct bt_json *c = v->w->consistency;
	for (size_t i = 0; c && i < c->u.arr.n; i++) {
		const struct bt_json *r = c->u.arr.items[i];
		const char *s = bt_json_get_str(r, "state");
		if (!s || strcmp(s, "violated"))
			continue;
		bt_sb_puts(o, "<p class=\"note flag\">violated: ");
		esc(o, bt_json_get_str(r, "rule"));
		bt_sb_printf(o, " (difference %g, tolerance %g)</p>", bt_json_num(r, "difference", NAN),
			     bt_json_num(r, "tolerance", NAN));
	}
	bt_sb_puts(o, "</div>");
}

static void plan(struct bt_strbuf *o, const struct bt_view *v)
{
	struct bt_page_step st[MAX_STEPS];
	size_t n = bt_page_steps(v, st, MAX_STEPS);
	const struct bt_json *cnt = v->doc->counting;
	const struct bt_json *pm = bt_json_get(cnt, "perf_metrics");
	bt_sb_puts(o, "<div><h3>Plan</h3><table><tr><th>step</th><th class=\"n\">level</th>"
		      "<th class=\"n\">nodes</th><th class=\"n\">new events</th><th class=\"n\">groups</th>"
		      "<th class=\"n\">lower bound</th><th class=\"n\">runs</th></tr>");
	for (size_t i = 0; i < n; i++)
		bt_sb_printf(o, "<tr><td>%zu</td><td class=\"n\">%u</td><td class=\"n\">%u</td><td class=\"n\">%u</td>"
				"<td class=\"n\">%u</td><td class=\"n\">%u</td><td class=\"n\">%u</td></tr>",
			     i + 1, st[i].level, st[i].nodes, st[i].events, st[i].groups, st[i].lower_bound,
			     st[i].runs);
	bt_sb_printf(o, "</table><p class=\"note\">Counters: %.0f general, fixed mask ",
		     bt_json_num(cnt, "general_counters", NAN));
	esc(o, bt_json_get_str(cnt, "fixed_mask") ? bt_json_get_str(cnt, "fixed_mask") : "-");
	bt_sb_printf(o, ", PERF_METRICS %s; nodes: ", pm && pm->type == BT_JSON_TRUE ? "yes" : "no");
	esc(o, bt_json_get_str(cnt, "nodes") ? bt_json_get_str(cnt, "nodes") : "-");
	bt_sb_printf(o, "; %.0f warm-up and %.0f runs per group, %.0f groups in all, never multiplexed.</p></div>",
		     bt_json_num(cnt, "warmups", NAN), bt_json_num(cnt, "reps", NAN),
		     bt_json_num(v->w->counted, "groups", NAN));
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
	bt_sb_printf(o, "<h3>Retire latencies</h3><p class=\"note\">%zu inputs; source in the order tried: "
		     "measured, file, published, the formula's fallback.</p><table><tr><th>input</th>"
		     "<th>value and source</th></tr>", n);
	for (size_t i = 0; i < n; i++) {
		bt_sb_puts(o, "<tr><td>");
		esc(o, names[i]);
		bt_sb_puts(o, ":R</td><td>");
		esc(o, text[i]);
		bt_sb_puts(o, "</td></tr>");
	}
	bt_sb_puts(o, "</table>");
}

static void workload(struct bt_strbuf *o, const struct bt_page *p, const struct bt_view *v, size_t id,
		     struct bt_arena *a)
{
	const char *tma = bt_results_tma_version(a, v->w->model_source);
	char tag[24];
	bt_page_doc_tag(p, v->doc, tag, sizeof(tag));
	bt_sb_printf(o, "<section class=\"card\" id=\"w%zu\"><h2>%s%s", id, tag, *tag ? " &middot; " : "");
	esc(o, v->w->label);
	bt_sb_puts(o, " <span class=\"params\">");
	esc(o, v->w->params);
	bt_sb_printf(o, "</span><span class=\"tag %s\">%s</span>%s</h2><p class=\"meta\">CPU ",
		     v->w->simulated ? "sim" : v->doc->replayed ? "replay" : "measured",
		     v->w->simulated ? "SIMULATED" : v->doc->replayed ? "replayed" : "measured",
		     v->w->simulated && v->doc->replayed ? "<span class=\"tag replay\">replayed</span>" : "");
	esc(o, v->w->cpu);
	bt_sb_puts(o, " &middot; model ");
	esc(o, v->w->model ? v->w->model : "-");
	bt_sb_puts(o, " &middot; TMA ");
	esc(o, tma ? tma : "version not said");
	if (!isnan(v->cpi))
		bt_sb_printf(o, " &middot; CPI %.3f (IPC %.3f)", v->cpi, 1 / v->cpi);
	bt_sb_puts(o, "</p><div class=\"path\">Bottleneck path: ");
	int any = 0;
	for (size_t i = 0; i < v->n_nodes; i++)
		if (v->nodes[i].on_path) {
			bt_sb_puts(o, any++ ? " &rsaquo; <b>" : "<b>");
			esc(o, v->nodes[i].name);
			bt_sb_puts(o, "</b>");
		}
	bool untrusted_flag = false;
	for (size_t i = 0; i < v->n_nodes; i++)
		untrusted_flag |= v->nodes[i].level == 1 && v->nodes[i].flag && v->nodes[i].untrusted_event;
	if (!any)
		bt_sb_puts(o, untrusted_flag ? "none (the flagged level-1 nodes are untrusted)"
					     : "none (no level-1 node is flagged)");
	bt_sb_puts(o, "</div>");
	if (v->w->perturbed) {
		bt_sb_printf(o, "<p class=\"warn\"><b>%s</b>", strncmp(v->w->perturbed, "PERTURBED", 9)
			     ? "PERTURBED: " : "");
		esc(o, v->w->perturbed);
		bt_sb_puts(o, "</p>");
	}
	level1_bar(o, v);
	bt_sb_puts(o, "<div class=\"cols\"><div class=\"tree\">");
	tree(o, v);
	bt_sb_puts(o, "</div><div class=\"cpi\">");
	cpi_stack(o, v);
	bt_sb_puts(o, "</div></div><div class=\"grid\">");
	checks(o, v);
	plan(o, v);
	bt_sb_puts(o, "</div>");
	latencies(o, v);
	events(o, v);
	bt_sb_puts(o, "</section>");
}

/* The document's workloads without a tree, with their CPU and why. */
static void not_counted(struct bt_strbuf *o, const struct bt_results_doc *doc)
{
	int any = 0;

	for (size_t i = 0; i < doc->n_workloads; i++) {
		const struct bt_results_workload *w = &doc->workloads[i];
		if (w->counted)
			continue;
		if (!any++)
			bt_sb_puts(o, "<section class=\"card\"><h2>Not counted</h2><table><tr>"
				      "<th>workload</th><th>CPU</th><th>state</th><th>why</th></tr>");
		bt_sb_puts(o, "<tr><td>");
		esc(o, w->label);
		bt_sb_puts(o, "</td><td>");
		esc(o, w->cpu);
		bt_sb_puts(o, "</td><td>");
		esc(o, *w->state ? w->state : "?");
		bt_sb_puts(o, "</td><td>");
		esc(o, w->reason);
		bt_sb_puts(o, "</td></tr>");
	}
	if (any)
		bt_sb_puts(o, "</table></section>");
}

/* Workload x node: rows the tree nodes, columns the workloads, each cell
 * tinted by its level-1 category's color in proportion to its value. */
static void heat(struct bt_strbuf *o, const struct bt_page *p)
{
	bt_sb_puts(o, "<section class=\"card\"><h2>Workload &times; node</h2><p class=\"meta\">Each cell is the "
		      "node's value; its tint grows with it. Bold: flagged; outlined: on the bottleneck path; "
		      "&ndash;: not measured; n/a: measured, a division by zero; missing: measured, an input "
		      "not counted.</p><div style=\"overflow-x:auto\"><table class=\"heat\"><tr><th>node</th>");
	for (size_t k = 0; k < p->n_views; k++) {
		char tag[24];
		bt_page_doc_tag(p, p->views[k].doc, tag, sizeof(tag));
		bt_sb_printf(o, "<th class=\"n\"><a href=\"#w%zu\">%s%s", k, tag, *tag ? " &middot; " : "");
		esc(o, p->views[k].w->label);
		bt_sb_puts(o, p->views[k].w->perturbed ? " (PERTURBED)</a></th>" : "</a></th>");
	}
	bt_sb_puts(o, "</tr>");
	for (size_t k = 0; k < p->n_views; k++) {
		for (size_t i = 0; i < p->views[k].n_nodes; i++) {
			const struct bt_view_node *n = &p->views[k].nodes[i];
			int seen = 0;
			for (size_t j = 0; j < p->n_views && !seen; j++) {
				const struct bt_view_node *m = bt_view_find(&p->views[j], n->name);
				seen = m && bt_page_listed(m);
			}
			seen = !seen; /* no workload lists it: no row */
			for (size_t j = 0; j < k && !seen; j++)
				seen = bt_view_find(&p->views[j], n->name) != NULL;
			if (seen)
				continue;
			unsigned indent = n->level > 1 ? (n->level - 1 < 10 ? n->level - 1 : 10) : 0;
			bt_sb_printf(o, "<tr><td class=\"nm\" style=\"padding-left:%upx\">", 8 + 16 * indent);
			esc(o, n->name);
			bt_sb_puts(o, "</td>");
			for (size_t j = 0; j < p->n_views; j++) {
				const struct bt_view_node *m = bt_view_find(&p->views[j], n->name);
				if (!m || isnan(m->value)) {
					const char *why = bt_page_no_value(m);
					bt_sb_printf(o, "<td class=\"dim\">%s</td>", why ? why : "&ndash;");
					continue;
				}
				double a = m->value < 0 ? 0 : m->value > 1 ? 1 : m->value;
				unsigned rgb = l1_rgb[m->category];
				bt_sb_printf(o, "<td class=\"%s%s\" style=\"background:rgba(%u,%u,%u,%.3f);color:%s\">",
					     m->flag ? "fl" : "", m->on_path ? " pa" : "", rgb >> 16, (rgb >> 8) & 255,
					     rgb & 255, 0.06 + 0.88 * a, a > 0.55 ? "#fff" : "#1d2330");
				pct(o, m->value, 1);
				bt_sb_puts(o, "</td>");
			}
			bt_sb_puts(o, "</tr>");
		}
	}
	bt_sb_puts(o, "</table></div></section>");
}

static void diff(struct bt_strbuf *o, const struct bt_diff *df)
{
	bt_sb_puts(o, "<section class=\"card\"><h2>Diff</h2><p class=\"meta\">A = ");
	esc(o, df->path_a);
	bt_sb_puts(o, ", B = ");
	esc(o, df->path_b);
	bt_sb_printf(o, ". %zu workload(s) compared: <b>%zu node(s) beyond the run-to-run spread</b>, %zu within it, "
			"%zu not judged, %zu equal, %zu only in A, %zu only in B.</p>",
		     df->n_workloads, df->n_class[BT_DIFF_BEYOND], df->n_class[BT_DIFF_WITHIN],
		     df->n_class[BT_DIFF_UNJUDGED], df->n_class[BT_DIFF_SAME], df->n_class[BT_DIFF_ONLY_A],
		     df->n_class[BT_DIFF_ONLY_B]);
	for (size_t i = 0; i < df->n_paths; i++) {
		const struct bt_diff_path *pp = &df->paths[i];
		bt_sb_puts(o, "<p class=\"note\">workload ");
		esc(o, pp->workload);
		bt_sb_printf(o, ": bottleneck path %s: A ", strcmp(pp->a, pp->b) ? "<b>changed</b>" : "the same");
		esc(o, pp->a[0] ? pp->a : "none");
		if (pp->a_share)
			bt_sb_puts(o, " (largest share)");
		bt_sb_puts(o, ", B ");
		esc(o, pp->b[0] ? pp->b : "none");
		if (pp->b_share)
			bt_sb_puts(o, " (largest share)");
		if (pp->a_share || pp->b_share)
			bt_sb_puts(o, "; largest share (the vendor defines no thresholds): the largest node "
				      "per level");
		bt_sb_puts(o, "</p>");
	}
	for (size_t i = 0; i < df->n_only_a + df->n_only_b; i++) {
		bt_sb_puts(o, "<p class=\"note\">workload ");
		esc(o, i < df->n_only_a ? df->only_a[i] : df->only_b[i - df->n_only_a]);
		bt_sb_printf(o, ": counted in %s only</p>", i < df->n_only_a ? "A" : "B");
	}
	bt_sb_puts(o, "<table><tr><th>workload</th><th>node</th><th class=\"n\">A</th><th class=\"n\">B</th>"
		      "<th class=\"n\">B &minus; A</th><th class=\"n\">A spread</th><th class=\"n\">B spread</th>"
		      "<th>verdict</th></tr>");
	for (size_t i = 0; i < df->n_rows; i++) {
		const struct bt_diff_row *r = &df->rows[i];
		if (r->cls == BT_DIFF_SAME || r->cls == BT_DIFF_NEITHER)
			continue;
		bt_sb_puts(o, "<tr><td>");
		esc(o, r->workload);
		bt_sb_puts(o, "</td><td>");
		esc(o, r->node);
		bt_sb_puts(o, "</td><td class=\"n\">");
		pct(o, r->a, 2);
		bt_sb_puts(o, "</td><td class=\"n\">");
		pct(o, r->b, 2);
		bt_sb_puts(o, "</td><td class=\"n\">");
		if (isnan(r->delta))
			bt_sb_puts(o, "<span class=\"dim\">&ndash;</span>");
		else
			bt_sb_printf(o, "%+.2f&#8239;%%", r->delta * 100);
		bt_sb_puts(o, "</td><td class=\"n\">");
		if (!isnan(r->a_lo))
			bt_sb_printf(o, "%.2f&ndash;%.2f&#8239;%%", r->a_lo * 100, r->a_hi * 100);
		bt_sb_puts(o, "</td><td class=\"n\">");
		if (!isnan(r->b_lo))
			bt_sb_printf(o, "%.2f&ndash;%.2f&#8239;%%", r->b_lo * 100, r->b_hi * 100);
		bt_sb_printf(o, "</td><td><span class=\"badge %s\">%s</span>",
			     r->cls == BT_DIFF_BEYOND ? "b-beyond" : r->cls == BT_DIFF_WITHIN ? "b-within" : "b-other",
			     bt_diff_class_name(r->cls));
		for (int side = 0; side < 2; side++) {
			const char *w = side ? r->b_why : r->a_why;
			if (!w)
				continue;
			bt_sb_printf(o, " <span class=\"dim\">%s: ", side ? "B" : "A");
			esc(o, w);
			bt_sb_puts(o, "</span>");
		}
		bt_sb_puts(o, "</td></tr>");
	}
	bt_sb_printf(o, "</table><p class=\"note\">Sorted by |B &minus; A|; %zu node(s) with equal values not listed. "
			"Beyond spread: A's value outside B's spread and B's outside A's, each spread the range "
			"of the node re-evaluated with every event at its min and its max over the runs, "
			"one event at a time.</p></section>",
		     df->n_class[BT_DIFF_SAME]);
}

static void doc_header(struct bt_strbuf *o, const struct bt_page *p, const struct bt_results_doc *d,
		       struct bt_arena *a)
{
	const char *tma = bt_results_tma_version(a, d->model_source);
	char tag[24];
	bt_page_doc_tag(p, d, tag, sizeof(tag));
	bt_sb_printf(o, "<section class=\"card doc%s\"><h2>%s%s", d->simulated ? "" : " m", tag, *tag ? " &middot; " : "");
	esc(o, d->path);
	bt_sb_printf(o, "<span class=\"tag %s\">%s</span></h2><p class=\"meta\">",
		     d->simulated ? "sim" : d->replayed ? "replay" : "measured", bt_page_provenance(d));
	struct bt_strbuf line = { 0 };
	bt_page_provenance_line(&line, d);
	esc(o, bt_sb_str(&line));
	bt_sb_free(&line);
	bt_sb_puts(o, "<br>Model <b>");
	esc(o, d->model ? d->model : "-");
	bt_sb_puts(o, "</b> ");
	if (d->uarch) {
		bt_sb_puts(o, "(");
		esc(o, d->uarch);
		bt_sb_puts(o, ") ");
	}
	bt_sb_puts(o, "&middot; TMA version <b>");
	esc(o, tma ? tma : "not said");
	bt_sb_puts(o, "</b> &middot; formulas: ");
	esc(o, d->model_source ? d->model_source : "not said");
	const struct bt_json *cpu = bt_json_get(d->root, "cpu");
	bt_sb_puts(o, "<br>CPU: ");
	esc(o, bt_json_get_str(cpu, "brand") ? bt_json_get_str(cpu, "brand") : "-");
	bt_sb_puts(o, " &middot; baretop ");
	esc(o, bt_json_get_str(bt_json_get(d->root, "baretop"), "version"));
	bt_sb_puts(o, " &middot; ");
	esc(o, bt_json_get_str(bt_json_get(d->root, "time"), "firmware_clock"));
	bt_sb_puts(o, "</p></section>");
}

void bt_page_html(struct bt_strbuf *o, const struct bt_page *p)
{
	struct bt_arena a;
	bt_arena_init(&a);
	size_t n_sim = 0, n_rep = 0;
	for (size_t i = 0; i < p->n_docs; i++) {
		n_sim += p->docs[i].simulated;
		n_rep += p->docs[i].replayed;
	}
	bt_sb_puts(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "style-src 'unsafe-inline'\">\n<meta name=\"viewport\" content=\"width=device-width, "
		      "initial-scale=1\">\n<title>baretop report");
	if (n_sim)
		bt_sb_puts(o, " (SIMULATED)");
	else if (n_rep)
		bt_sb_puts(o, " (replayed)");
	bt_sb_puts(o, "</title>\n<style>");
	bt_sb_puts(o, css);
	bt_sb_puts(o, "</style></head>\n<body>\n");
	if (n_sim)
		bt_sb_printf(o, "<header class=\"banner sim\">SIMULATED &mdash; %s<small>The counts come from "
				"baretop's simulated PMU (a model written by hand), not from hardware: the numbers "
				"show what the model says, nothing about any CPU.%s</small></header>\n",
			     n_sim < p->n_docs ? "part of this report is not measured on hardware"
					       : "not measured on hardware",
			     n_rep ? " Some trees are replayed from count files." : "");
	else if (n_rep)
		bt_sb_printf(o, "<header class=\"banner replay\">REPLAYED &mdash; evaluated again from count "
				"files<small>%zu tree(s) computed now from counts written earlier: nothing was measured "
				"for this report.</small></header>\n", n_rep);
	else if (p->n_views)
		bt_sb_puts(o, "<header class=\"banner measured\">Measured on hardware<small>Counted by the "
			      "CPU's own PMU, without multiplexing.</small></header>\n");
	else
		bt_sb_puts(o, "<header class=\"banner nocount\">No counts<small>No workload of these results "
			      "files was counted: each file says why.</small></header>\n");
	bt_sb_printf(o, "<main><h1>baretop Top-Down report</h1><p class=\"meta\">%zu results file(s), %zu counted "
			"workload(s)%s</p>\n",
		     p->n_docs, p->n_views, p->diff ? ", with a diff of A and B" : "");
	if (p->diff)
		diff(o, p->diff);
	if (p->diff && p->diff_only)
		goto done;
	if (p->n_views > 1)
		heat(o, p);
	for (size_t d = 0; d < p->n_docs; d++) {
		doc_header(o, p, &p->docs[d], &a);
		for (size_t k = 0; k < p->n_views; k++)
			if (p->views[k].doc == &p->docs[d])
				workload(o, p, &p->views[k], k, &a);
		not_counted(o, &p->docs[d]);
	}
done:
	bt_sb_puts(o, "<footer>Written by baretop-host report. Self-contained: no script, font, image or "
		      "network request.</footer></main>\n</body></html>\n");
	bt_arena_free(&a);
}

/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/atlas-page.h"
#include "analysis/html-escape.h"
#include "analysis/json-file.h"
#include "base/arena.h"
#include "base/json-read.h"
#include "base/strbuf.h"

static const struct bt_json *atlas_of(const struct bt_json *root)
{
	const struct bt_json *a = bt_json_get(root, "atlas");
	return a && a->type == BT_JSON_OBJECT ? a : NULL;
}

bool bt_atlas_page_is_atlas(const char *path)
{
	struct bt_arena a;
	struct bt_json *root;
	struct bt_diag d = { "" };
	bool yes;

	bt_arena_init(&a);
	yes = bt_json_load_file(&a, path, &root, &d) == BT_OK && atlas_of(root);
	bt_arena_free(&a);
	return yes;
}

/* A member that must be a string (or null: ""). */
static bt_status str_of(const struct bt_json *o, const char *key, const char *path,
			const char **ret, struct bt_diag *d)
{
	const struct bt_json *v = bt_json_get(o, key);
	if (!v || v->type == BT_JSON_NULL) {
		*ret = "";
		return BT_OK;
	}
	if (v->type != BT_JSON_STRING) {
		bt_diag_set(d, "%s:%u:%u: \"%s\" is not a string", path, v->line, v->col, key);
		return BT_ERR_INVALID;
	}
	*ret = v->u.str.s;
	return BT_OK;
}

static bt_status array_of(const struct bt_json *o, const char *key, const char *path,
			  const struct bt_json **ret, struct bt_diag *d)
{
	*ret = bt_json_get(o, key);
	if (!*ret || (*ret)->type != BT_JSON_ARRAY) {
		bt_diag_set(d, "%s:%u:%u: the atlas has no \"%s\" array", path, o->line, o->col, key);
		return BT_ERR_INVALID;
	}
	return BT_OK;
}

struct row {
	const char *event, *cls, *per, *why, *encoding;
	char slope[40], matches[160];
	int violated;
};

static bt_status read_rows(const struct bt_json *atlas, const char *path, struct row **ret,
			   size_t *n, const struct bt_json **inv, struct bt_diag *d)
{
	const struct bt_json *ev;
	bt_status st;

	if ((st = array_of(atlas, "events", path, &ev, d)) != BT_OK ||
	    (st = array_of(atlas, "invariants", path, inv, d)) != BT_OK)
		return st;
	struct row *r = calloc(ev->u.arr.n ? ev->u.arr.n : 1, sizeof(*r));
	if (!r) {
		bt_diag_set(d, "%s: out of memory", path);
		return BT_ERR_NOMEM;
	}
	for (size_t i = 0; i < ev->u.arr.n; i++) {
		const struct bt_json *e = ev->u.arr.items[i];
		if (e->type != BT_JSON_OBJECT) {
			bt_diag_set(d, "%s:%u:%u: events[%zu] is not an object", path, e->line, e->col, i);
			free(r);
			return BT_ERR_INVALID;
		}
		if (str_of(e, "event", path, &r[i].event, d) || str_of(e, "class", path, &r[i].cls, d) ||
		    str_of(e, "per", path, &r[i].per, d) || str_of(e, "why", path, &r[i].why, d) ||
		    str_of(e, "encoding", path, &r[i].encoding, d)) {
			free(r);
			return BT_ERR_INVALID;
		}
		const struct bt_json *s = bt_json_get(e, "slope");
		if (s && s->type == BT_JSON_NUMBER && isfinite(s->u.num.value))
			snprintf(r[i].slope, sizeof(r[i].slope), "%.6g", s->u.num.value);
		const struct bt_json *m = bt_json_get(e, "matches");
		size_t u = 0;
		for (size_t k = 0; m && m->type == BT_JSON_ARRAY && k < m->u.arr.n; k++) {
			const char *x = bt_json_str(m->u.arr.items[k]);
			if (x && u < sizeof(r[i].matches))
				u += (size_t)snprintf(r[i].matches + u, sizeof(r[i].matches) - u, "%s%s",
						      u ? " " : "", x);
		}
	}
	for (size_t k = 0; k < (*inv)->u.arr.n; k++) {
		const char *e = bt_json_get_str((*inv)->u.arr.items[k], "event");
		const char *s = bt_json_get_str((*inv)->u.arr.items[k], "state");
		if (!e || !s || strcmp(s, "violated") != 0)
			continue;
		for (size_t i = 0; i < ev->u.arr.n; i++)
			if (strcmp(r[i].event, e) == 0)
				r[i].violated++;
	}
	*ret = r;
	*n = ev->u.arr.n;
	return BT_OK;
}

/* One row per event; the last column says on every row what counted it
 * (SIMULATED or measured), as the page's banner and the text's line do. */
static void csv(FILE *f, const struct row *r, size_t n, bool sim)
{
	const char *head[] = { "event", "encoding", "class", "slope", "per", "matches",
			       "invariants_violated", "why", "provenance" };
	for (int k = 0; k < 9; k++)
		bt_csv_put_field(f, head[k], k == 8);
	for (size_t i = 0; i < n; i++) {
		char v[16];
		snprintf(v, sizeof(v), "%d", r[i].violated);
		bt_csv_put_field(f, r[i].event, 0);
		bt_csv_put_field(f, r[i].encoding, 0);
		bt_csv_put_field(f, r[i].cls, 0);
		bt_csv_put_field(f, r[i].slope, 0);
		bt_csv_put_field(f, r[i].per, 0);
		bt_csv_put_field(f, r[i].matches, 0);
		bt_csv_put_field(f, v, 0);
		bt_csv_put_field(f, r[i].why, 0);
		bt_csv_put_field(f, sim ? "SIMULATED" : "measured", 1);
	}
}

/* Sorting and search, inline (the page is self-contained). */
static const char script[] =
	"<script>\n"
	"function srt(c){var t=document.getElementById('ev'),b=t.tBodies[0],"
	"r=Array.from(b.rows),d=t.dataset.c==c?-1:1;t.dataset.c=d<0?'':c;"
	"r.sort(function(x,y){var a=x.cells[c].textContent,z=y.cells[c].textContent,"
	"p=parseFloat(a),q=parseFloat(z);if(!isNaN(p)&&!isNaN(q))return d*(p-q);"
	"return d*a.localeCompare(z);});r.forEach(function(x){b.appendChild(x);});}\n"
	"function flt(){var q=document.getElementById('q').value.toLowerCase();"
	"Array.from(document.getElementById('ev').tBodies[0].rows).forEach(function(x){"
	"x.style.display=x.textContent.toLowerCase().indexOf(q)<0?'none':'';});}\n"
	"</script>\n";

static void cell(struct bt_strbuf *sb, const char *v)
{
	bt_sb_puts(sb, "<td>");
	bt_html_escape(sb, v ? v : "");
	bt_sb_puts(sb, "</td>");
}

static void html(struct bt_strbuf *sb, const struct bt_json *atlas, const struct row *r, size_t n,
		 const struct bt_json *inv, const char *path)
{
	const struct bt_json *list = bt_json_get(atlas, "list");
	const struct bt_json *w = bt_json_get(atlas, "windows");
	const struct bt_json *t = bt_json_get(atlas, "time");
	const struct bt_json *simv = bt_json_get(atlas, "simulated");
	bool sim = simv && simv->type == BT_JSON_TRUE;
	const char *pmu = bt_json_get_str(atlas, "pmu");
	const char *file = list ? bt_json_get_str(list, "file") : NULL;
	const char *ver = list ? bt_json_get_str(list, "version") : NULL;

	bt_sb_puts(sb, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>baretop event atlas"
		   "</title>\n<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:"
		   "collapse}td,th{border:1px solid #bbb;padding:2px 6px;font-size:13px;white-space:nowrap}th{background:"
		   "#eee;cursor:pointer}.violated{background:#fdd}.sim{color:#a00;font-weight:bold}"
		   ".linear{background:#efe}.refused{color:#777}</style>\n");
	bt_sb_puts(sb, script);
	bt_sb_puts(sb, "</head><body>\n<h1>Event atlas</h1>\n<p>");
	if (sim)
		bt_sb_puts(sb, "<span class=\"sim\">SIMULATED: counted by the simulated PMU, not "
			   "measured on silicon.</span> ");
	bt_html_printf(sb, "%s; list %s%s%s (from %s)", pmu ? pmu : "PMU ?", file ? file : "?",
		       ver ? " version " : "", ver ? ver : "", path);
	bt_sb_puts(sb, "</p>\n<p>");
	const struct bt_json *num;
	if (w && (num = bt_json_get(w, "run")) && num->type == BT_JSON_NUMBER)
		bt_sb_printf(sb, "Windows run %.0f", num->u.num.value);
	if (w && (num = bt_json_get(w, "lower_bound")) && num->type == BT_JSON_NUMBER)
		bt_sb_printf(sb, ", lower bound %.0f", num->u.num.value);
	if (t && (num = bt_json_get(t, "estimated_s")) && num->type == BT_JSON_NUMBER)
		bt_sb_printf(sb, "; estimated %.1f s", num->u.num.value);
	if (t && (num = bt_json_get(t, "actual_s")) && num->type == BT_JSON_NUMBER)
		bt_sb_printf(sb, ", took %.1f s", num->u.num.value);
	bt_sb_puts(sb, "</p>\n<h2>Invariant violations</h2>\n");
	int nv = 0;
	for (size_t k = 0; k < inv->u.arr.n; k++) {
		const struct bt_json *x = inv->u.arr.items[k];
		const char *s = bt_json_get_str(x, "state");
		if (!s || strcmp(s, "violated") != 0)
			continue;
		if (!nv++)
			bt_sb_puts(sb, "<table><tr><th>event</th><th>invariant</th><th>detail</th></tr>\n");
		bt_sb_puts(sb, "<tr class=\"violated\">");
		cell(sb, bt_json_get_str(x, "event"));
		cell(sb, bt_json_get_str(x, "invariant"));
		cell(sb, bt_json_get_str(x, "detail"));
		bt_sb_puts(sb, "</tr>\n");
	}
	if (nv)
		bt_sb_puts(sb, "</table>\n");
	else
		bt_sb_printf(sb, "<p>None of %zu invariant checks violated.</p>\n", inv->u.arr.n);
	bt_sb_puts(sb, "<h2>Events</h2>\n<p><input id=\"q\" placeholder=\"search\" oninput=\"flt()\"> "
		   "(click a column to sort)</p>\n<table id=\"ev\"><thead><tr>");
	const char *head[] = { "event", "class", "slope", "per", "matches", "violated", "encoding", "why" };
	for (int k = 0; k < 8; k++)
		bt_sb_printf(sb, "<th onclick=\"srt(%d)\">%s</th>", k, head[k]);
	bt_sb_puts(sb, "</tr></thead><tbody>\n");
	/* the events with a violated invariant first, then the list's order */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			char v[16];
			if ((pass == 0) != (r[i].violated > 0))
				continue;
			snprintf(v, sizeof(v), "%d", r[i].violated);
			bt_sb_printf(sb, "<tr class=\"%s\">", r[i].violated ? "violated"
				     : strcmp(r[i].cls, "linear") == 0 ? "linear"
				     : strcmp(r[i].cls, "refused") == 0 ? "refused" : "");
			cell(sb, r[i].event);
			cell(sb, r[i].cls);
			cell(sb, r[i].slope);
			cell(sb, r[i].per);
			cell(sb, r[i].matches);
			cell(sb, v);
			cell(sb, r[i].encoding);
			cell(sb, r[i].why);
			bt_sb_puts(sb, "</tr>\n");
		}
	bt_sb_puts(sb, "</tbody></table>\n</body></html>\n");
}

bt_status bt_atlas_page_write(const char *path, enum bt_atlas_page_kind kind, FILE *f,
			      struct bt_diag *d)
{
	struct bt_arena a;
	struct bt_json *root;
	const struct bt_json *inv;
	struct row *r = NULL;
	size_t n = 0;
	bt_status st;

	bt_arena_init(&a);
	if ((st = bt_json_load_file(&a, path, &root, d)) != BT_OK)
		goto out;
	const struct bt_json *atlas = atlas_of(root);
	if (!atlas) {
		bt_diag_set(d, "%s: no \"atlas\" object", path);
		st = BT_ERR_INVALID;
		goto out;
	}
	if ((st = read_rows(atlas, path, &r, &n, &inv, d)) != BT_OK)
		goto out;
	const struct bt_json *simv = bt_json_get(atlas, "simulated");
	bool sim = simv && simv->type == BT_JSON_TRUE;
	if (kind == BT_ATLAS_PAGE_CSV) {
		csv(f, r, n, sim);
	} else if (kind == BT_ATLAS_PAGE_HTML) {
		struct bt_strbuf sb = { 0 };
		html(&sb, atlas, r, n, inv, path);
		fputs(bt_sb_str(&sb), f);
		bt_sb_free(&sb);
	} else {
		int violated = 0;
		for (size_t i = 0; i < n; i++)
			violated += r[i].violated > 0;
		fprintf(f, "atlas of %s: %zu events, %d with a violated invariant\n", path, n, violated);
		/* what counted it, as the page's banner says it */
		const struct bt_json *list = bt_json_get(atlas, "list");
		const char *pmu = bt_json_get_str(atlas, "pmu");
		const char *file = list ? bt_json_get_str(list, "file") : NULL;
		fprintf(f, "%s%s; list %s\n", sim
			? "SIMULATED: counted by the simulated PMU, not measured on silicon; " : "",
			pmu ? pmu : "PMU ?", file ? file : "?");
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%-50s %-13s %-8s %-14s %s\n", r[i].event, r[i].cls, r[i].slope,
				r[i].per, r[i].matches);
	}
out:
	free(r);
	bt_arena_free(&a);
	return st;
}

struct side {
	struct bt_arena arena;
	const struct bt_json *inv;
	struct row *r;
	size_t n;
};

static bt_status load_side(const char *path, struct side *s, struct bt_diag *d)
{
	struct bt_json *root;
	bt_status st;

	memset(s, 0, sizeof(*s));
	bt_arena_init(&s->arena);
	if ((st = bt_json_load_file(&s->arena, path, &root, d)) != BT_OK)
		return st;
	const struct bt_json *atlas = atlas_of(root);
	if (!atlas) {
		bt_diag_set(d, "%s: no \"atlas\" object", path);
		return BT_ERR_INVALID;
	}
	return read_rows(atlas, path, &s->r, &s->n, &s->inv, d);
}

static const struct row *find_row(const struct side *s, const char *event)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->r[i].event, event) == 0)
			return &s->r[i];
	return NULL;
}

static const char *inv_state(const struct side *s, const char *event, const char *inv)
{
	for (size_t k = 0; k < s->inv->u.arr.n; k++) {
		const struct bt_json *x = s->inv->u.arr.items[k];
		const char *e = bt_json_get_str(x, "event"), *i = bt_json_get_str(x, "invariant");
		if (e && i && strcmp(e, event) == 0 && strcmp(i, inv) == 0)
			return bt_json_get_str(x, "state");
	}
	return NULL;
}

bt_status bt_atlas_page_diff(const char *a, const char *b, FILE *f, int *n_changed,
			     struct bt_diag *d)
{
	struct side A, B;
	bt_status st = load_side(a, &A, d);

	*n_changed = 0;
	if (st == BT_OK)
		st = load_side(b, &B, d);
	else
		memset(&B, 0, sizeof(B));
	if (st != BT_OK)
		goto out;
	fprintf(f, "atlas diff: %s (%zu events) -> %s (%zu events)\n", a, A.n, b, B.n);
	for (size_t i = 0; i < A.n; i++) {
		const struct row *x = &A.r[i], *y = find_row(&B, x->event);
		if (!y) {
			fprintf(f, "  %-48s only in the first (%s)\n", x->event, x->cls);
			(*n_changed)++;
		} else if (strcmp(x->cls, y->cls) || strcmp(x->slope, y->slope) ||
			   strcmp(x->matches, y->matches)) {
			fprintf(f, "  %-48s %s %s [%s] -> %s %s [%s]\n", x->event, x->cls, x->slope,
				x->matches, y->cls, y->slope, y->matches);
			(*n_changed)++;
		}
	}
	for (size_t i = 0; i < B.n; i++)
		if (!find_row(&A, B.r[i].event)) {
			fprintf(f, "  %-48s only in the second (%s)\n", B.r[i].event, B.r[i].cls);
			(*n_changed)++;
		}
	for (size_t k = 0; k < B.inv->u.arr.n; k++) {
		const struct bt_json *x = B.inv->u.arr.items[k];
		const char *e = bt_json_get_str(x, "event"), *i = bt_json_get_str(x, "invariant");
		const char *sb = bt_json_get_str(x, "state");
		if (!e || !i || !sb)
			continue;
		const char *sa = inv_state(&A, e, i);
		if (!sa || strcmp(sa, sb)) {
			const char *dt = bt_json_get_str(x, "detail");
			fprintf(f, "  %-48s %s: %s -> %s%s%s\n", e, i, sa ? sa : "absent", sb,
				dt ? ": " : "", dt ? dt : "");
			(*n_changed)++;
		}
	}
	fprintf(f, "atlas diff: %d change(s)\n", *n_changed);
out:
	free(A.r);
	free(B.r);
	bt_arena_free(&A.arena);
	bt_arena_free(&B.arena);
	return st;
}

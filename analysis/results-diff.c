/* SPDX-License-Identifier: MIT */
/* Two results documents compared: results-diff.h. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "analysis/page.h"
#include "analysis/results-diff.h"

const char *bt_diff_class_name(enum bt_diff_class c)
{
	static const char *const names[] = { "same", "within spread", "beyond spread", "not judged",
					     "only in A", "only in B", "in neither" };
	return c <= BT_DIFF_NEITHER ? names[c] : "?";
}

enum bt_diff_class bt_diff_classify(double a, double a_lo, double a_hi, double b, double b_lo,
				    double b_hi, bool spread_known)
{
	if (isnan(a) && isnan(b))
		return BT_DIFF_NEITHER;
	if (isnan(b))
		return BT_DIFF_ONLY_A;
	if (isnan(a))
		return BT_DIFF_ONLY_B;
	double scale = fmax(1.0, fmax(fabs(a), fabs(b)));
	if (fabs(a - b) <= 1e-12 * scale)
		return BT_DIFF_SAME;
	if (!spread_known)
		return BT_DIFF_UNJUDGED;
	/* a NaN bound (no spread) stands for the value itself */
	if (isnan(a_lo) || isnan(a_hi))
		a_lo = a_hi = a;
	if (isnan(b_lo) || isnan(b_hi))
		b_lo = b_hi = b;
	bool a_out = a < b_lo || a > b_hi, b_out = b < a_lo || b > a_hi;
	return a_out && b_out ? BT_DIFF_BEYOND : BT_DIFF_WITHIN;
}

static const struct bt_view *find_view(const struct bt_view *v, size_t n, const char *label)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].w->label, label))
			return &v[i];
	return NULL;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct bt_diff_row *x = pa, *y = pb;
	double dx = isnan(x->delta) ? -1 : fabs(x->delta), dy = isnan(y->delta) ? -1 : fabs(y->delta);
	if (dx != dy)
		return dx < dy ? 1 : -1;
	int c = strcmp(x->workload, y->workload);
	if (c)
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

static const char *why(struct bt_arena *a, const struct bt_view_node *n)
{
	char buf[256];
	if (!n || !isnan(n->value) || strcmp(n->state, "not_measured") != 0)
		return NULL;
	return bt_arena_strdup(a, bt_page_state_text(n, buf, sizeof(buf)));
}

static void add_row(struct bt_arena *a, struct bt_diff *out, const char *wl, size_t order,
		    const struct bt_view_node *na, const struct bt_view_node *nb, bool known)
{
	const struct bt_view_node *n = na ? na : nb;
	struct bt_diff_row *r = &out->rows[out->n_rows++];
	r->workload = wl;
	r->node = n->name;
	r->level = n->level;
	r->order = order;
	r->category = n->category;
	r->a = na ? na->value : NAN;
	r->a_lo = na ? na->lo : NAN;
	r->a_hi = na ? na->hi : NAN;
	r->b = nb ? nb->value : NAN;
	r->b_lo = nb ? nb->lo : NAN;
	r->b_hi = nb ? nb->hi : NAN;
	r->delta = r->b - r->a;
	r->cls = bt_diff_classify(r->a, r->a_lo, r->a_hi, r->b, r->b_lo, r->b_hi, known);
	r->a_why = why(a, na);
	r->b_why = why(a, nb);
	out->n_class[r->cls]++;
}

/* The view's bottleneck path as "X > Y" (tree order is path order). */
static const char *path_text(struct bt_arena *a, const struct bt_view *v)
{
	size_t len = 1;
	for (size_t k = 0; k < v->n_nodes; k++)
		if (v->nodes[k].on_path)
			len += strlen(v->nodes[k].name) + 3;
	char *s = bt_arena_alloc(a, len);
	if (!s)
		return "";
	s[0] = '\0';
	for (size_t k = 0, u = 0; k < v->n_nodes; k++)
		if (v->nodes[k].on_path)
			u += (size_t)snprintf(s + u, len - u, "%s%s", u ? " > " : "", v->nodes[k].name);
	return s;
}

bt_status bt_diff_build(struct bt_arena *a, const struct bt_view *va, size_t na, const struct bt_view *vb,
			size_t nb, struct bt_diff *out)
{
	memset(out, 0, sizeof(*out));
	size_t cap = 0;
	for (size_t i = 0; i < na; i++)
		cap += va[i].n_nodes;
	for (size_t i = 0; i < nb; i++)
		cap += vb[i].n_nodes;
	out->rows = bt_arena_alloc(a, (cap + 1) * sizeof(*out->rows));
	out->only_a = bt_arena_alloc(a, (na + 1) * sizeof(char *));
	out->only_b = bt_arena_alloc(a, (nb + 1) * sizeof(char *));
	out->paths = bt_arena_alloc(a, (na + 1) * sizeof(*out->paths));
	if (!out->rows || !out->only_a || !out->only_b || !out->paths)
		return BT_ERR_NOMEM;
	if (na)
		out->path_a = va[0].doc->path;
	if (nb)
		out->path_b = vb[0].doc->path;
	for (size_t i = 0; i < na; i++) {
		const struct bt_view *x = &va[i], *y = find_view(vb, nb, x->w->label);
		if (!y) {
			out->only_a[out->n_only_a++] = x->w->label;
			continue;
		}
		out->n_workloads++;
		out->paths[out->n_paths++] = (struct bt_diff_path){ x->w->label, path_text(a, x),
								    path_text(a, y), x->path_largest_share,
								    y->path_largest_share };
		bool known = x->spread_known && y->spread_known;
		/* A's nodes in A's order, then nodes only B has */
		for (size_t k = 0; k < x->n_nodes; k++)
			add_row(a, out, x->w->label, k, &x->nodes[k], bt_view_find(y, x->nodes[k].name), known);
		for (size_t k = 0; k < y->n_nodes; k++)
			if (!bt_view_find(x, y->nodes[k].name))
				add_row(a, out, x->w->label, x->n_nodes + k, NULL, &y->nodes[k], known);
	}
	for (size_t i = 0; i < nb; i++)
		if (!find_view(va, na, vb[i].w->label))
			out->only_b[out->n_only_b++] = vb[i].w->label;
	qsort(out->rows, out->n_rows, sizeof(*out->rows), cmp_rows);
	return BT_OK;
}

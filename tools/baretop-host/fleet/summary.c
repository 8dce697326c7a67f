/* SPDX-License-Identifier: MIT */
/*
 * The fleet summary: see summary.h. The unit of comparison is one
 * machine under one firmware version and microcode: its value of a node is
 * the median over its runs (a machine measured every boot counts once, not
 * once per boot; a machine measured before and after a firmware update
 * counts once under each). The fleet's median and MAD are taken over those
 * units; a unit stands out when it lies more than k MADs from the fleet
 * median. A group (firmware version, microcode) is compared with the rest
 * of the fleet (the units outside it): it stands out when its median is
 * further from the rest's median than chance allows for a group of its size
 * (bt_robust_group_stands_out, in the rest's MADs), so a firmware
 * regression too small to single out any one machine shows up as a group.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/near-name.h"
#include "metrics/robust-stats.h"
#include "tools/baretop-host/fleet/sql.h"
#include "tools/baretop-host/fleet/summary.h"
#include "analysis/json-file.h"
#include "report/tree.h"

/* Machines flagged anywhere, for the closing list. */
struct flagged {
	char *machine, *firmware, *microcode;
	char *where;            /* "workload/node (+12.3 MAD), ..." */
};

/* The printer's state across blocks. */
struct printer {
	const struct bt_fleet_summary_opts *o;
	struct flagged *fl;
	size_t nfl, flcap;
};

static const char *fmt(char *buf, size_t len, const char *f, double v)
{
	if (isnan(v))
		return "";
	if (isinf(v))
		return v > 0 ? "+inf" : "-inf";
	snprintf(buf, len, f, v);
	return buf;
}

/* One row of the table (text and CSV): the fleet row (firmware NULL) or a group row. */
struct row {
	const struct bt_fleet_block *b;
	const char *firmware, *microcode;
	size_t machines;
	double median, mad, shift;
	int outliers, group_out;
	const char *outlier_machines;
	const char *provenance;  /* "measured", "SIMULATED" or "SIMULATED in k of n runs" */
};

#define N_COLUMNS 14
static const char *const COLUMNS[N_COLUMNS] = { "workload", "params", "model", "node", "firmware",
						"microcode", "machines", "median", "mad", "shift_mads",
						"group_stands_out", "outliers", "outlier_machines", "provenance" };

/* What the values of a row are: measured, SIMULATED (the simulated PMU or
 * replayed counts: the run's or the workload's "simulated"), or a mix, said
 * with its counts. */
static const char *provenance(size_t sim, size_t all, char *buf, size_t len)
{
	if (!sim)
		return "measured";
	if (sim == all)
		return "SIMULATED";
	snprintf(buf, len, "SIMULATED in %zu of %zu runs", sim, all);
	return buf;
}

/* How far a unit lies, in words that say what the unit of distance is: a
 * MAD of 0 is no spread, never a distance "in MADs" (bt_robust: the scale
 * is then 0.8453 x the mean absolute deviation, or 0 when all are equal). */
static const char *distance_text(char *buf, size_t len, const struct bt_robust *r, double dist)
{
	if (r->scale == 0 || !isfinite(dist))
		snprintf(buf, len, "no spread: differs from all the others");
	else if (r->scale_is_meanad)
		snprintf(buf, len, "MAD 0: %+.4g from the median", dist * r->scale);
	else
		snprintf(buf, len, "%+.1f", dist);
	return buf;
}

static void print_row(const struct bt_fleet_summary_opts *o, const struct row *r)
{
	char m[32], med[32], mad[32], sh[32], outs[16];
	snprintf(m, sizeof(m), "%zu", r->machines);
	snprintf(outs, sizeof(outs), "%d", r->outliers);
	const char *cells[N_COLUMNS] = { r->b->workload, r->b->params, r->b->model, r->b->node,
					 r->firmware ? r->firmware : "(fleet)",
					 r->firmware ? r->microcode : "", m,
					 fmt(med, sizeof(med), "%.6g", r->median),
					 fmt(mad, sizeof(mad), "%.3g", r->mad),
					 r->firmware ? fmt(sh, sizeof(sh), "%+.1f", r->shift) : "",
					 r->firmware ? (r->group_out ? "yes" : "no") : "", outs,
					 r->outlier_machines, r->provenance };
	if (o->csv)
		for (size_t i = 0; i < N_COLUMNS; i++)
			bt_csv_put_field(o->csv, cells[i], i == N_COLUMNS - 1);
	if (o->text) {
		if (!r->firmware)
			fprintf(o->text, "\n%s%s%s%s  %s  %s%s%s%s: %zu machines, median %s, MAD %s%s, %d stand%s out%s%s\n",
				r->b->workload, r->b->params[0] ? " (" : "", r->b->params,
				r->b->params[0] ? ")" : "", r->b->model, r->b->node,
				strcmp(r->provenance, "measured") ? " (" : "",
				strcmp(r->provenance, "measured") ? r->provenance : "",
				strcmp(r->provenance, "measured") ? ")" : "", r->machines, cells[7],
				cells[8], r->mad == 0 ? " (no spread)" : "",
				r->outliers, r->outliers == 1 ? "s" : "", r->outliers ? ": " : "",
				r->outlier_machines);
		else
			fprintf(o->text, "    %-22s %-12s %4zu  %10s  %8s MAD%s  %d out%s%s\n", r->firmware,
				r->microcode, r->machines, cells[7], cells[9], r->group_out ? " GROUP STANDS OUT" : "",
				r->outliers, r->outliers ? ": " : "", r->outlier_machines);
	}
}

static bt_status note_flag(struct printer *p, const struct bt_fleet_block *b, const struct bt_fleet_unit_out *u,
			   double dist)
{
	char what[400], d[64];
	const struct bt_robust *fleet = &b->fleet;
	distance_text(d, sizeof(d), fleet, dist);
	snprintf(what, sizeof(what), "%s%s%s%s %s %s%s", b->workload, b->params[0] ? " (" : "",
		 b->params, b->params[0] ? ")" : "", b->node, d,
		 fleet->scale > 0 && !fleet->scale_is_meanad ? " MAD" : "");
	for (size_t i = 0; i < p->nfl; i++)
		if (!strcmp(p->fl[i].machine, u->machine) && !strcmp(p->fl[i].firmware, u->firmware) &&
		    !strcmp(p->fl[i].microcode, u->microcode)) {
			size_t len = strlen(p->fl[i].where) + strlen(what) + 3;
			char *w = malloc(len);
			if (!w)
				return BT_ERR_NOMEM;
			snprintf(w, len, "%s, %s", p->fl[i].where, what);
			free(p->fl[i].where);
			p->fl[i].where = w;
			return BT_OK;
		}
	struct flagged *g = bt_fleet_grow(p->fl, &p->flcap, p->nfl, sizeof(*p->fl));
	if (!g)
		return BT_ERR_NOMEM;
	p->fl = g;
	struct flagged *f = &p->fl[p->nfl++];
	*f = (struct flagged){ bt_fleet_dup(u->machine), bt_fleet_dup(u->firmware), bt_fleet_dup(u->microcode),
			       bt_fleet_dup(what) };
	return f->machine && f->firmware && f->microcode && f->where ? BT_OK : BT_ERR_NOMEM;
}

static bt_status append(char **s, size_t *len, const char *add)
{
	size_t n = strlen(add);
	char *p = realloc(*s, *len + n + 2);
	if (!p)
		return BT_ERR_NOMEM;
	if (*len)
		p[(*len)++] = ';';
	memcpy(p + *len, add, n + 1);
	*len += n;
	*s = p;
	return BT_OK;
}

static int in_group(const struct bt_fleet_group *g, const struct bt_fleet_unit_out *u)
{
	return !strcmp(g->firmware, u->firmware) && (!strcmp(g->microcode, "(any)") ||
						     !strcmp(g->microcode, u->microcode));
}

/* Prints one block: its fleet row, then its group rows (--outliers: only
 * those where a machine or the group stands out, after their fleet row). */
static bt_status print_block(void *ctx, const struct bt_fleet_block *b)
{
	struct printer *p = ctx;
	const struct bt_fleet_summary_opts *o = p->o;
	char *all = NULL;
	size_t all_len = 0;
	bt_status rc = BT_OK;
	for (size_t i = 0; i < b->n_out && rc == BT_OK; i++) {
		char what[320], dist[64];
		double d = bt_robust_distance(&b->fleet, b->out[i].value);
		snprintf(what, sizeof(what), "%s (%s)", b->out[i].machine,
			 distance_text(dist, sizeof(dist), &b->fleet, d));
		if ((rc = append(&all, &all_len, what)) == BT_OK)
			rc = note_flag(p, b, &b->out[i], d);
	}
	char prov[64], fprov[64];
	struct row fr = { b, NULL, NULL, b->fleet.n, b->fleet.median, b->fleet.mad, NAN, (int)b->n_out, 0,
			  all ? all : "", provenance(b->simulated, b->runs, fprov, sizeof(fprov)) };
	/* --outliers: the fleet row only where a machine stands out, or ahead
	 * of a group row that does (a group row never stands alone) */
	bool fleet_shown = !o->only_outliers || b->n_out > 0;
	if (fleet_shown)
		print_row(o, &fr);
	for (size_t g = 0; g < b->n_groups && rc == BT_OK; g++) {
		const struct bt_fleet_group *gr = &b->groups[g];
		char *outs = NULL;
		size_t outs_len = 0;
		int n = 0;
		for (size_t i = 0; i < b->n_out; i++)
			if (in_group(gr, &b->out[i])) {
				char what[320], dist[64];
				snprintf(what, sizeof(what), "%s (%s)", b->out[i].machine,
					 distance_text(dist, sizeof(dist), &b->fleet,
						       bt_robust_distance(&b->fleet, b->out[i].value)));
				if (append(&outs, &outs_len, what) != BT_OK)
					rc = BT_ERR_NOMEM;
				n++;
			}
		struct row r = { b, gr->firmware, gr->microcode, gr->n, gr->median, gr->mad,
				 gr->rest.n ? bt_robust_distance(&gr->rest, gr->median) : NAN, n,
				 gr->rest.n >= BT_FLEET_MIN_MACHINES &&
					 bt_robust_group_stands_out(&gr->rest, gr->median, gr->n, o->k),
				 outs ? outs : "", provenance(gr->simulated, gr->runs, prov, sizeof(prov)) };
		if (!o->only_outliers || r.outliers > 0 || r.group_out) {
			if (!fleet_shown)
				print_row(o, &fr);
			fleet_shown = true;
			print_row(o, &r);
		}
		free(outs);
	}
	free(all);
	return rc;
}

static int cmp_group(const void *a, const void *b)
{
	const struct bt_fleet_unit_in *x = *(const struct bt_fleet_unit_in *const *)a;
	const struct bt_fleet_unit_in *y = *(const struct bt_fleet_unit_in *const *)b;
	int c = strcmp(x->firmware, y->firmware);
	if (!c)
		c = strcmp(x->microcode, y->microcode);
	return c ? c : strcmp(x->machine, y->machine);
}

/* The block's statistics in C: each unit's value is the median of its
 * runs; the fleet's median, MAD and scale over units (bt_robust_of); a unit
 * stands out beyond k of those (with at least BT_FLEET_MIN_MACHINES
 * units); each group against the rest of the fleet. The PostgreSQL engine
 * computes the same in SQL (pg.c). */
bt_status bt_fleet_block_of_units(const struct bt_fleet_summary_opts *o, const char *workload, const char *params,
				  const char *model, const char *node, struct bt_fleet_unit_in *u, size_t n,
				  bt_fleet_block_fn fn, void *ctx)
{
	if (!n)
		return BT_OK;
	double *v = malloc(n * sizeof(double)), *tmp = malloc(n * sizeof(double));
	double *val = malloc(n * sizeof(double)), *rest = malloc(n * sizeof(double));
	struct bt_fleet_unit_in **order = malloc(n * sizeof(*order));
	struct bt_fleet_unit_out *out = malloc(n * sizeof(*out));
	struct bt_fleet_group *groups = malloc(2 * n * sizeof(*groups));
	bt_status rc = BT_ERR_NOMEM;
	if (!v || !tmp || !val || !rest || !order || !out || !groups)
		goto out;
	struct bt_fleet_block b = { workload, params, model, node, { 0 }, 0, 0, 0, out, 0, groups };
	for (size_t i = 0; i < n; i++)
		order[i] = &u[i];
	qsort(order, n, sizeof(*order), cmp_group);
	for (size_t i = 0; i < n; i++) {
		val[i] = bt_median_inplace(order[i]->vals, order[i]->n);
		b.simulated += order[i]->simulated;
		b.runs += order[i]->n;
	}
	b.fleet = bt_robust_of(val, n, tmp);
	int judge = n >= BT_FLEET_MIN_MACHINES;
	for (size_t i = 0; i < n; i++)
		if (judge && bt_robust_stands_out(&b.fleet, val[i], o->k))
			out[b.n_out++] = (struct bt_fleet_unit_out){ order[i]->machine, order[i]->firmware,
								     order[i]->microcode, val[i] };
	/* groups by firmware version alone (microcode "(any)"; only when the
	 * version has more than one microcode), then by version and microcode */
	for (int by_uc = 0; by_uc < 2; by_uc++)
	for (size_t g = 0; g < n;) {
		size_t e = g;
		int ucs = 1;
		struct bt_fleet_group *gr = &groups[b.n_groups];
		*gr = (struct bt_fleet_group){ order[g]->firmware, by_uc ? order[g]->microcode : "(any)", 0, NAN, NAN,
					       { 0, NAN, NAN, NAN, 0 }, 0, 0 };
		while (e < n && !strcmp(order[e]->firmware, order[g]->firmware) &&
		       (!by_uc || !strcmp(order[e]->microcode, order[g]->microcode))) {
			ucs += e > g && strcmp(order[e]->microcode, order[e - 1]->microcode) != 0;
			v[e - g] = val[e];
			gr->simulated += order[e]->simulated;
			gr->runs += order[e]->n;
			e++;
		}
		if (!by_uc && ucs < 2) {
			g = e;
			continue;
		}
		struct bt_robust grs = bt_robust_of(v, e - g, tmp);
		gr->n = e - g;
		gr->median = grs.median;
		gr->mad = grs.mad;
		/* the rest of the fleet, without this group: a regressed group
		 * that is a large share of the fleet would otherwise widen the
		 * MAD it is measured with */
		size_t nr = 0;
		for (size_t i = 0; i < n; i++)
			if (i < g || i >= e)
				rest[nr++] = val[i];
		gr->rest = bt_robust_of(rest, nr, tmp);
		b.n_groups++;
		g = e;
	}
	rc = fn(ctx, &b);
out:
	free(v);
	free(tmp);
	free(val);
	free(rest);
	free(order);
	free(out);
	free(groups);
	return rc;
}

/* The fleet's bottleneck path per workload (with its parameters) and
 * model, from the fleet's median node values: level by level, the largest
 * node that most machines flag (more than half of those with a known
 * flag); where no machine has a flag for any node of the block (the vendor
 * defines no thresholds: AMD), the largest node, and it says so. */
static bt_status path_block(void *ctx, const char *wl, const char *params, const char *model,
		       struct bt_fleet_path_node *p, size_t n)
{
	FILE *f = ctx;
	size_t known = 0;
	for (size_t i = 0; i < n; i++)
		known += p[i].known;
	bool by_share = known == 0;
	char path[1024] = "";
	size_t u = 0;
	const char *parent = "";
	for (int depth = 0; depth < 16; depth++) {
		struct bt_fleet_path_node *best = NULL;
		for (size_t i = 0; i < n; i++) {
			struct bt_fleet_path_node *x = &p[i];
			if (strcmp(x->parent, parent) || isnan(x->median))
				continue;
			if (!by_share && !(x->known && 2 * x->flagged > x->known))
				continue;
			if (!best || x->median > best->median)
				best = x;
		}
		if (!best || u >= sizeof(path))
			break;
		u += (size_t)snprintf(path + u, sizeof(path) - u, "%s%s", u ? " > " : "", best->node);
		parent = best->node;
	}
	fprintf(f, "  %s%s%s%s  %s: %s%s\n", wl, params[0] ? " (" : "", params, params[0] ? ")" : "",
		model, u ? path : by_share ? "none" : "none (no level-1 node flagged on most machines)",
		u && by_share ? " -- largest share (the vendor defines no thresholds)" : "");
	return BT_OK;
}

struct node_search {
	const char *node;
	int found;
	long long n;
	char *best;             /* the nearest name so far (the engine's text lasts one call) */
	struct bt_near_name nn;
};

static bt_status offer_name(void *ctx, const char *name)
{
	struct node_search *ns = ctx;
	ns->n++;
	ns->found |= strcmp(name, ns->node) == 0;
	bt_near_name_offer(&ns->nn, name);
	if (ns->nn.best == name) {
		free(ns->best);
		ns->best = bt_fleet_dup(name);
		ns->nn.best = ns->best;
		if (!ns->best)
			return BT_ERR_NOMEM;
	}
	return BT_OK;
}

bt_status bt_fleet_summary(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o, size_t *machines_out,
			    struct bt_diag *d)
{
	*machines_out = 0;
	/* --node NAME must name a Top-Down node the database holds: otherwise
	 * the summary would be an empty table that reads "0 machines stand out". */
	if (o->node) {
		struct node_search ns = { o->node, 0, 0, NULL, { 0 } };
		char hint[200];
		bt_near_name_init(&ns.nn, o->node);
		bt_status rc = s->e->node_names(s, offer_name, &ns, d);
		if (rc == BT_OK && !ns.found) {
			bt_diag_set(d, "--node %s: no Top-Down node of that name in the database (%lld distinct "
				       "nodes)%s", o->node, ns.n, bt_near_name_hint(&ns.nn, hint, sizeof(hint)));
			rc = BT_ERR_NOT_FOUND;
		}
		free(ns.best);
		if (rc != BT_OK)
			return rc;
	}
	if (o->csv)
		for (size_t i = 0; i < N_COLUMNS; i++)
			bt_csv_put_field(o->csv, COLUMNS[i], i == N_COLUMNS - 1);
	if (o->text)
		fprintf(o->text, "\nper workload (with its parameters), model and Top-Down node: the fleet (machines, median, MAD, the machines\n"
				 "more than k = %g MADs from the median, with their distance in MADs), then each group of\n"
				 "firmware version and microcode (machines, group median, its shift from the median of the\n"
				 "rest of the fleet in the rest's MADs, GROUP STANDS OUT when beyond chance for a group\n"
				 "of that size)\n", o->k);
	struct printer p = { o, NULL, 0, 0 };
	bt_status rc = s->e->blocks(s, o, print_block, &p, d);
	if (rc == BT_OK && o->text && !o->node) {
		fprintf(o->text, "\nbottleneck path of the fleet per workload and model (the fleet's median values; the "
				 "nodes most machines flag):\n");
		rc = s->e->paths(s, path_block, o->text, d);
	}
	if (rc == BT_OK && o->text) {
		fprintf(o->text, "\nmachines that stand out (more than %g MADs from the fleet median): %zu\n", o->k, p.nfl);
		for (size_t i = 0; i < p.nfl; i++)
			fprintf(o->text, "  %s  firmware %s  microcode %s: %s\n", p.fl[i].machine, p.fl[i].firmware,
				p.fl[i].microcode, p.fl[i].where);
	}
	/* a machine under two firmware versions is listed under each; count machines once */
	size_t machines = 0;
	for (size_t i = 0; i < p.nfl; i++) {
		int seen = 0;
		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(p.fl[i].machine, p.fl[j].machine);
		machines += !seen;
	}
	for (size_t i = 0; i < p.nfl; i++) {
		free(p.fl[i].machine);
		free(p.fl[i].firmware);
		free(p.fl[i].microcode);
		free(p.fl[i].where);
	}
	free(p.fl);
	*machines_out = machines;
	if (rc == BT_ERR_NOMEM && !d->text[0])
		bt_diag_set(d, "fleet summary: out of memory");
	return rc;
}

/* SPDX-License-Identifier: MIT */
/*
 * The fleet summary: see fleet-summary.h. The unit of comparison is one
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
#include "tools/baretop-host/fleet-summary.h"
#include "analysis/json-file.h"
#include "report/tree.h"

struct unit {
	char *machine, *firmware, *microcode;
	double *vals;
	size_t n, cap;
	double value;           /* median of vals */
	double dist;            /* (value - fleet median) / scale */
	int out;
	size_t simulated;       /* of vals: SIMULATED or replayed counts */
};

struct block {
	char *workload, *params, *model, *node;
	struct unit *u;
	size_t n, cap;
};

/* Machines flagged anywhere, for the closing list. */
struct flagged {
	char *machine, *firmware, *microcode;
	char *where;            /* "workload/node (+12.3 MAD), ..." */
};

static char *dup(const char *s)
{
	char *c = strdup(s ? s : "");
	if (!c) {
		fprintf(stderr, "baretop-host: out of memory\n");
		exit(1);
	}
	return c;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	p = realloc(p, *cap * size);
	if (!p) {
		fprintf(stderr, "baretop-host: out of memory\n");
		exit(1);
	}
	return p;
}

static void block_free(struct block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->u[i].machine);
		free(b->u[i].firmware);
		free(b->u[i].microcode);
		free(b->u[i].vals);
	}
	free(b->u);
	free(b->workload);
	free(b->params);
	free(b->model);
	free(b->node);
	memset(b, 0, sizeof(*b));
}

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
	const struct block *b;
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

/* What the values of units [0, n) are: measured, SIMULATED (the simulated
 * PMU or replayed counts: the run's or the workload's "simulated"), or a
 * mix, said with its counts. */
static const char *provenance(struct unit *const *u, size_t n, char *buf, size_t len)
{
	size_t sim = 0, all = 0;
	for (size_t i = 0; i < n; i++) {
		sim += u[i]->simulated;
		all += u[i]->n;
	}
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

static int cmp_group(const void *a, const void *b)
{
	const struct unit *x = *(const struct unit *const *)a, *y = *(const struct unit *const *)b;
	int c = strcmp(x->firmware, y->firmware);
	if (!c)
		c = strcmp(x->microcode, y->microcode);
	return c ? c : strcmp(x->machine, y->machine);
}

static void note_flag(struct flagged **fl, size_t *nfl, size_t *cap, const struct block *b,
		      const struct unit *u, const struct bt_robust *fleet)
{
	char what[400], dist[64];
	distance_text(dist, sizeof(dist), fleet, u->dist);
	snprintf(what, sizeof(what), "%s%s%s%s %s %s%s", b->workload, b->params[0] ? " (" : "",
		 b->params, b->params[0] ? ")" : "", b->node, dist,
		 fleet->scale > 0 && !fleet->scale_is_meanad ? " MAD" : "");
	for (size_t i = 0; i < *nfl; i++)
		if (!strcmp((*fl)[i].machine, u->machine) && !strcmp((*fl)[i].firmware, u->firmware) &&
		    !strcmp((*fl)[i].microcode, u->microcode)) {
			size_t len = strlen((*fl)[i].where) + strlen(what) + 3;
			char *w = malloc(len);
			if (!w)
				exit(1);
			snprintf(w, len, "%s, %s", (*fl)[i].where, what);
			free((*fl)[i].where);
			(*fl)[i].where = w;
			return;
		}
	*fl = grow(*fl, cap, *nfl, sizeof(**fl));
	(*fl)[*nfl] = (struct flagged){ dup(u->machine), dup(u->firmware), dup(u->microcode), dup(what) };
	(*nfl)++;
}

static void append(char **s, size_t *len, const char *add)
{
	size_t n = strlen(add);
	char *p = realloc(*s, *len + n + 2);
	if (!p)
		exit(1);
	if (*len)
		p[(*len)++] = ';';
	memcpy(p + *len, add, n + 1);
	*len += n;
	*s = p;
}

static void finish_block(const struct bt_fleet_summary_opts *o, struct block *b, struct flagged **fl,
			 size_t *nfl, size_t *flcap)
{
	if (!b->n)
		return;
	double *v = malloc(b->n * sizeof(double)), *tmp = malloc(b->n * sizeof(double));
	double *rest = malloc(b->n * sizeof(double));
	struct unit **order = malloc(b->n * sizeof(*order));
	if (!v || !tmp || !rest || !order)
		exit(1);
	for (size_t i = 0; i < b->n; i++) {
		b->u[i].value = bt_median_inplace(b->u[i].vals, b->u[i].n);
		v[i] = b->u[i].value;
		order[i] = &b->u[i];
	}
	struct bt_robust fleet = bt_robust_of(v, b->n, tmp);
	int judge = b->n >= BT_FLEET_MIN_MACHINES;
	char *all = NULL;
	size_t all_len = 0;
	int n_out = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct unit *u = &b->u[i];
		u->dist = bt_robust_distance(&fleet, u->value);
		u->out = judge && bt_robust_stands_out(&fleet, u->value, o->k);
	}
	qsort(order, b->n, sizeof(*order), cmp_group);
	for (size_t i = 0; i < b->n; i++)
		if (order[i]->out) {
			char what[320], dist[64];
			snprintf(what, sizeof(what), "%s (%s)", order[i]->machine,
				 distance_text(dist, sizeof(dist), &fleet, order[i]->dist));
			append(&all, &all_len, what);
			note_flag(fl, nfl, flcap, b, order[i], &fleet);
			n_out++;
		}
	char prov[64], fprov[64];
	struct row fr = { b, NULL, NULL, b->n, fleet.median, fleet.mad, NAN, n_out, 0, all ? all : "",
			  provenance(order, b->n, fprov, sizeof(fprov)) };
	/* --outliers: the fleet row only where a machine stands out, or ahead
	 * of a group row that does (a group row never stands alone) */
	bool fleet_shown = !o->only_outliers || n_out > 0;
	if (fleet_shown)
		print_row(o, &fr);
	/* groups by firmware version alone (microcode "(any)"; only when the
	 * version has more than one microcode), then by version and microcode */
	for (int by_uc = 0; by_uc < 2; by_uc++)
	for (size_t g = 0; g < b->n;) {
		size_t e = g;
		int ucs = 1;
		while (e < b->n && !strcmp(order[e]->firmware, order[g]->firmware) &&
		       (!by_uc || !strcmp(order[e]->microcode, order[g]->microcode))) {
			ucs += e > g && strcmp(order[e]->microcode, order[e - 1]->microcode) != 0;
			e++;
		}
		if (!by_uc && ucs < 2) {
			g = e;
			continue;
		}
		char *outs = NULL;
		size_t outs_len = 0;
		int n = 0;
		for (size_t i = g; i < e; i++) {
			v[i - g] = order[i]->value;
			if (order[i]->out) {
				char what[320], dist[64];
				snprintf(what, sizeof(what), "%s (%s)", order[i]->machine,
					 distance_text(dist, sizeof(dist), &fleet, order[i]->dist));
				append(&outs, &outs_len, what);
				n++;
			}
		}
		struct bt_robust gr = bt_robust_of(v, e - g, tmp);
		/* the rest of the fleet, without this group: a regressed group
		 * that is a large share of the fleet would otherwise widen the
		 * MAD it is measured with */
		size_t nr = 0;
		for (size_t i = 0; i < b->n; i++)
			if (i < g || i >= e)
				rest[nr++] = order[i]->value;
		struct bt_robust rs = bt_robust_of(rest, nr, tmp);
		struct row r = { b, order[g]->firmware, by_uc ? order[g]->microcode : "(any)", e - g, gr.median, gr.mad,
				 nr ? bt_robust_distance(&rs, gr.median) : NAN, n,
				 nr >= BT_FLEET_MIN_MACHINES &&
					 bt_robust_group_stands_out(&rs, gr.median, e - g, o->k),
				 outs ? outs : "", provenance(order + g, e - g, prov, sizeof(prov)) };
		if (!o->only_outliers || r.outliers > 0 || r.group_out) {
			if (!fleet_shown)
				print_row(o, &fr);
			fleet_shown = true;
			print_row(o, &r);
		}
		free(outs);
		g = e;
	}
	free(all);
	free(rest);
	free(v);
	free(tmp);
	free(order);
}

/* The fleet's bottleneck path per workload (with its parameters) and
 * model, from the fleet's median node values: level by level, the largest
 * node that most machines flag (more than half of those with a known
 * flag); where no machine has a flag for any node of the block (the vendor
 * defines no thresholds: AMD), the largest node, and it says so. */
struct pnode {
	char *node, *parent;
	double *vals;
	size_t n, cap;
	size_t flagged, known;
	double median;
};

static void path_block(FILE *f, const char *wl, const char *params, const char *model,
		       struct pnode *p, size_t n)
{
	size_t known = 0;
	for (size_t i = 0; i < n; i++) {
		p[i].median = bt_median_inplace(p[i].vals, p[i].n);
		known += p[i].known;
	}
	bool by_share = known == 0;
	char path[1024] = "";
	size_t u = 0;
	const char *parent = "";
	for (int depth = 0; depth < 16; depth++) {
		struct pnode *best = NULL;
		for (size_t i = 0; i < n; i++) {
			struct pnode *x = &p[i];
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
}

static void pnodes_free(struct pnode *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].node);
		free(p[i].parent);
		free(p[i].vals);
	}
}

static int fleet_paths(sqlite3 *db, FILE *f)
{
	sqlite3_stmt *st;
	const char *sql =
		"SELECT w.name, IFNULL(w.params, ''), IFNULL(w.model, ''), n.node, IFNULL(n.parent, ''),"
		"       n.value, n.thresh"
		"  FROM nodes n JOIN workloads w ON w.workload_id = n.workload_id"
		" WHERE n.kind = 'tree' AND n.value IS NOT NULL"
		" ORDER BY w.name, IFNULL(w.params, ''), w.model, n.node";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "baretop-host: fleet summary: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	fprintf(f, "\nbottleneck path of the fleet per workload and model (the fleet's median values; the "
		   "nodes most machines flag):\n");
	char *wl = NULL, *params = NULL, *model = NULL;
	struct pnode *p = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);
		const char *pa = (const char *)sqlite3_column_text(st, 1);
		const char *mo = (const char *)sqlite3_column_text(st, 2);
		const char *node = (const char *)sqlite3_column_text(st, 3);
		const char *parent = (const char *)sqlite3_column_text(st, 4);
		if (!w || !pa || !mo || !node || !parent)
			continue;
		if (!wl || strcmp(wl, w) || strcmp(params, pa) || strcmp(model, mo)) {
			if (wl)
				path_block(f, wl, params, model, p, n);
			pnodes_free(p, n);
			n = 0;
			free(wl);
			free(params);
			free(model);
			wl = dup(w);
			params = dup(pa);
			model = dup(mo);
		}
		if (!n || strcmp(p[n - 1].node, node)) {
			p = grow(p, &cap, n, sizeof(*p));
			p[n++] = (struct pnode){ dup(node), dup(parent), NULL, 0, 0, 0, 0, NAN };
		}
		struct pnode *x = &p[n - 1];
		x->vals = grow(x->vals, &x->cap, x->n, sizeof(double));
		x->vals[x->n++] = sqlite3_column_double(st, 5);
		if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
			x->known++;
			x->flagged += sqlite3_column_int(st, 6) != 0;
		}
	}
	if (wl)
		path_block(f, wl, params, model, p, n);
	pnodes_free(p, n);
	free(p);
	free(wl);
	free(params);
	free(model);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "baretop-host: fleet summary: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* --node NAME must name a Top-Down node the database holds: otherwise the
 * summary would be an empty table that reads "0 machines stand out". */
static int check_node(sqlite3 *db, const char *node)
{
	sqlite3_stmt *st;
	struct bt_near_name nn;
	char *best = NULL, hint[200];
	long long n = 0;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT node FROM nodes WHERE kind = 'tree'", -1, &st,
			       NULL) != SQLITE_OK) {
		fprintf(stderr, "baretop-host: fleet summary: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	bt_near_name_init(&nn, node);
	while (!found && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (!name)
			continue;
		n++;
		found = strcmp(name, node) == 0;
		bt_near_name_offer(&nn, name);
		if (nn.best == name) {  /* the row's text lasts until the next step */
			free(best);
			best = dup(name);
			nn.best = best;
		}
	}
	sqlite3_finalize(st);
	if (!found)
		fprintf(stderr, "baretop-host: fleet: --node %s: no Top-Down node of that name in the "
				"database (%lld distinct nodes)%s\n", node, n,
			bt_near_name_hint(&nn, hint, sizeof(hint)));
	free(best);
	return found ? 0 : -2;
}

int bt_fleet_summary(sqlite3 *db, const struct bt_fleet_summary_opts *o)
{
	sqlite3_stmt *st;
	const char *sql =
		"SELECT w.name, IFNULL(w.model, ''), n.node, m.machine_key, f.version,"
		"       IFNULL(r.microcode, 'unknown'), n.value, IFNULL(w.params, ''),"
		"       r.simulated OR w.simulated"
		"  FROM nodes n JOIN workloads w ON w.workload_id = n.workload_id"
		"  JOIN runs r ON r.run_id = w.run_id JOIN machines m ON m.machine_id = r.machine_id"
		"  JOIN firmware f ON f.firmware_id = r.firmware_id"
		" WHERE n.kind = 'tree' AND n.value IS NOT NULL AND (?1 IS NULL OR n.node = ?1)"
		" ORDER BY w.name, IFNULL(w.params, ''), w.model, n.level, n.node, m.machine_key, f.version,"
		"          r.microcode";
	if (o->node) {
		int c = check_node(db, o->node);
		if (c < 0)
			return c;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "baretop-host: fleet summary: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	if (o->node)
		sqlite3_bind_text(st, 1, o->node, -1, SQLITE_STATIC);
	if (o->csv)
		for (size_t i = 0; i < N_COLUMNS; i++)
			bt_csv_put_field(o->csv, COLUMNS[i], i == N_COLUMNS - 1);
	if (o->text)
		fprintf(o->text, "\nper workload (with its parameters), model and Top-Down node: the fleet (machines, median, MAD, the machines\n"
				 "more than k = %g MADs from the median, with their distance in MADs), then each group of\n"
				 "firmware version and microcode (machines, group median, its shift from the median of the\n"
				 "rest of the fleet in the rest's MADs, GROUP STANDS OUT when beyond chance for a group\n"
				 "of that size)\n", o->k);
	struct block b = { 0 };
	struct flagged *fl = NULL;
	size_t nfl = 0, flcap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *wl = (const char *)sqlite3_column_text(st, 0);
		const char *model = (const char *)sqlite3_column_text(st, 1);
		const char *node = (const char *)sqlite3_column_text(st, 2);
		const char *mach = (const char *)sqlite3_column_text(st, 3);
		const char *fw = (const char *)sqlite3_column_text(st, 4);
		const char *uc = (const char *)sqlite3_column_text(st, 5);
		double val = sqlite3_column_double(st, 6);
		const char *params = (const char *)sqlite3_column_text(st, 7);
		if (!wl || !model || !node || !mach || !fw || !uc || !params)
			continue;
		if (!b.workload || strcmp(b.workload, wl) || strcmp(b.params, params) ||
		    strcmp(b.model, model) || strcmp(b.node, node)) {
			finish_block(o, &b, &fl, &nfl, &flcap);
			block_free(&b);
			b.workload = dup(wl);
			b.params = dup(params);
			b.model = dup(model);
			b.node = dup(node);
		}
		struct unit *u = b.n ? &b.u[b.n - 1] : NULL;
		if (!u || strcmp(u->machine, mach) || strcmp(u->firmware, fw) || strcmp(u->microcode, uc)) {
			b.u = grow(b.u, &b.cap, b.n, sizeof(*b.u));
			u = &b.u[b.n++];
			*u = (struct unit){ dup(mach), dup(fw), dup(uc), NULL, 0, 0, NAN, NAN, 0, 0 };
		}
		u->vals = grow(u->vals, &u->cap, u->n, sizeof(double));
		u->vals[u->n++] = val;
		u->simulated += sqlite3_column_int(st, 8) != 0;
	}
	finish_block(o, &b, &fl, &nfl, &flcap);
	block_free(&b);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "baretop-host: fleet summary: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	int paths_rc = o->text && !o->node ? fleet_paths(db, o->text) : 0;
	if (o->text) {
		fprintf(o->text, "\nmachines that stand out (more than %g MADs from the fleet median): %zu\n", o->k, nfl);
		for (size_t i = 0; i < nfl; i++)
			fprintf(o->text, "  %s  firmware %s  microcode %s: %s\n", fl[i].machine, fl[i].firmware,
				fl[i].microcode, fl[i].where);
	}
	/* a machine under two firmware versions is listed under each; count machines once */
	size_t machines = 0;
	for (size_t i = 0; i < nfl; i++) {
		int seen = 0;
		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(fl[i].machine, fl[j].machine);
		machines += !seen;
	}
	for (size_t i = 0; i < nfl; i++) {
		free(fl[i].machine);
		free(fl[i].firmware);
		free(fl[i].microcode);
		free(fl[i].where);
	}
	free(fl);
	return paths_rc < 0 ? -1 : (int)machines;
}

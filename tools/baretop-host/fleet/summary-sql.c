/* SPDX-License-Identifier: MIT */
/*
 * The fleet summary's statistics, once, in SQL that both engines run
 * (docs/fleet-schema.md, "The summary in SQL"): unit values, medians, MADs
 * (a second pass over |value - median|), the units that stand out and the
 * groups against the rest of the fleet; only the fleet rows, group rows and
 * the units that stand out come back to the printer (summary.c).
 *
 * Every median is the same expression (MEDIAN below): the rows of a
 * partition ranked by value, the middle one or the two middle ones taken,
 * lo + (hi - lo) * 0.5, as bt_median_inplace and PostgreSQL's
 * percentile_cont(0.5) compute it. Written with window functions and
 * FILTER, it runs on SQLite (3.30 and later) as on PostgreSQL, which
 * percentile_cont would not (SQLite has none): one statistic for both
 * engines, computed where the data is (10^6 runs never leave the server).
 *
 * Temporary tables, dropped by the summary's closing ROLLBACK (one
 * snapshot while importers write: REPEATABLE READ on PostgreSQL), each
 * ANALYZEd before it is joined; the work is keyed by integers, never
 * sorted by text:
 *   fn, fk, fun: ids of tree node names (nid: one per node text), of
 *       workload kinds (k: name, params, model) and of units (machine,
 *       firmware version, microcode; fwid and pid number the versions and
 *       the (version, microcode) partitions in byte order, as strcmp);
 *       fr0, fw: each run's and workload's unit;
 *   fu0: a unit's median per (k, nid);
 *   fb, fu, fs: blocks numbered in the text's order with the fleet
 *       median, units ranked in their block (rb: by value, then unit),
 *       the MAD and mean absolute deviation;
 *   fg, fgu, fgm: groups (version "(any)" when it has more than one
 *       microcode; each version and microcode), their members with
 *       gap = rb - (rank in the group), median and MAD;
 *   fr: the rest of the fleet's median per group: gap counts the units
 *       outside the group ahead of a member, so the rest's k-th unit is
 *       the block's unit of rank k + (members with gap < k): two lookups
 *       per group instead of a group x unit join;
 *   frm: the rest's MAD and mean absolute deviation (distances from the
 *       rest's median, which differ per group).
 * @C@, @DROP@, @ANALYZE@ and @NV@ are the dialect's (sql.h); @NODE@ the
 * node asked for (a quoted literal or NULL), @K@, @MEANAD@ and @MIN@ the
 * outlier rule's numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/robust-stats.h"
#include "tools/baretop-host/fleet/sql.h"
#include "tools/baretop-host/fleet/summary.h"

/* The median of x over the rows of a group, ranked i = 1..c by x. */
#define MEDIAN(x)                                                                          \
	"(min(" x ") FILTER (WHERE i IN ((c + 1) / 2, c / 2 + 1)) + (max(" x ") FILTER (WHERE " \
	"i IN ((c + 1) / 2, c / 2 + 1)) - min(" x ") FILTER (WHERE i IN ((c + 1) / 2, c / 2 + 1))) * 0.5)"
/* i and c of x over a partition, for MEDIAN. */
#define RANKED(part, x) "row_number() OVER (PARTITION BY " part " ORDER BY " x ") AS i, count(*) OVER (PARTITION BY " part ") AS c"

static const char SUMMARY_SQL[] =
	"CREATE TEMP TABLE fn @DROP@ AS\n"
	" SELECT name_id, dense_rank() OVER (ORDER BY node@C@) AS nid, node, level FROM node_names\n"
	"  WHERE kind = 'tree' AND (CAST(@NODE@ AS TEXT) IS NULL OR node = CAST(@NODE@ AS TEXT));\n"
	"CREATE TEMP TABLE fk @DROP@ AS\n"
	" SELECT row_number() OVER () AS k, x.* FROM\n"
	"  (SELECT DISTINCT name AS workload, COALESCE(params, '') AS params, COALESCE(model, '') AS model FROM workloads) x;\n"
	"CREATE TEMP TABLE fun @DROP@ AS\n"
	" SELECT row_number() OVER () AS unit, dense_rank() OVER (ORDER BY firmware@C@) AS fwid,\n"
	"        dense_rank() OVER (ORDER BY firmware@C@, microcode@C@) AS pid, x.*\n"
	"   FROM (SELECT DISTINCT r.machine_id, f.version AS firmware, COALESCE(r.microcode, 'unknown') AS microcode\n"
	"           FROM runs r JOIN firmware f USING (firmware_id)) x;\n"
	"@ANALYZE@fn; @ANALYZE@fk; @ANALYZE@fun;\n"
	"CREATE TEMP TABLE fr0 @DROP@ AS\n"
	" SELECT r.run_id, u.unit, r.simulated FROM runs r JOIN firmware f USING (firmware_id)\n"
	"   JOIN fun u ON u.machine_id = r.machine_id AND u.firmware = f.version AND u.microcode = COALESCE(r.microcode, 'unknown');\n"
	"@ANALYZE@fr0;\n"
	"CREATE TEMP TABLE fw @DROP@ AS\n"
	" SELECT w.workload_id, k.k, x.unit, (x.simulated <> 0 OR w.simulated <> 0) AS sim\n"
	"   FROM workloads w JOIN fr0 x USING (run_id)\n"
	"   JOIN fk k ON k.workload = w.name AND k.params = COALESCE(w.params, '') AND k.model = COALESCE(w.model, '');\n"
	"@ANALYZE@fw;\n"
	"CREATE TEMP TABLE fu0 @DROP@ AS\n"
	" SELECT k, nid, unit, min(level) AS level, " MEDIAN("value") " AS value,\n"
	"        count(*) AS runs, count(*) FILTER (WHERE sim) AS sim\n"
	"   FROM (SELECT v.k, n.nid, v.unit, n.level, v.value, v.sim, " RANKED("v.k, n.nid, v.unit", "v.value") "\n"
	"           FROM (SELECT x.k, x.unit, x.sim, nv.name_id, nv.value FROM @NV@ nv JOIN fw x USING (workload_id)) v\n"
	"           JOIN fn n USING (name_id)\n"
	"          WHERE v.value IS NOT NULL) y\n"
	"  GROUP BY k, nid, unit;\n"
	"@ANALYZE@fu0;\n"
	"CREATE TEMP TABLE fb @DROP@ AS\n"
	" SELECT row_number() OVER (ORDER BY k.workload@C@, k.params@C@, k.model@C@,\n"
	"                           x.level, n.node@C@) AS b, x.*, k.workload, k.params, k.model, n.node\n"
	"   FROM (SELECT k, nid, min(level) AS level, count(*) AS n, " MEDIAN("value") " AS med,\n"
	"                sum(runs) AS runs, sum(sim) AS sim\n"
	"           FROM (SELECT fu0.*, " RANKED("k, nid", "value") " FROM fu0) y GROUP BY k, nid) x\n"
	"   JOIN fk k USING (k) JOIN (SELECT DISTINCT nid, node FROM fn) n USING (nid);\n"
	"@ANALYZE@fb;\n"
	"CREATE TEMP TABLE fu @DROP@ AS\n"
	" SELECT fb.b, u.unit, un.fwid, un.pid, u.value, u.runs, u.sim,\n"
	"        row_number() OVER (PARTITION BY fb.b ORDER BY u.value, u.unit) AS rb\n"
	"   FROM fu0 u JOIN fb USING (k, nid) JOIN fun un USING (unit);\n"
	"@ANALYZE@fu;\n"
	"CREATE TEMP TABLE fs @DROP@ AS\n"
	" SELECT b, " MEDIAN("dev") " AS mad, avg(dev) AS meanad\n"
	"   FROM (SELECT u.b, abs(u.value - fb.med) AS dev, " RANKED("u.b", "abs(u.value - fb.med)") "\n"
	"           FROM fu u JOIN fb USING (b)) y GROUP BY b;\n"
	"CREATE TEMP TABLE fg @DROP@ AS\n"
	" SELECT row_number() OVER () AS g, x.* FROM (\n"
	"  SELECT b, 0 AS by_uc, fwid, CAST(NULL AS bigint) AS pid, count(*) AS n, " MEDIAN("value") " AS med,\n"
	"         sum(runs) AS runs, sum(sim) AS sim\n"
	"    FROM (SELECT fu.*, " RANKED("b, fwid", "value") " FROM fu) y GROUP BY b, fwid HAVING count(DISTINCT pid) > 1\n"
	"  UNION ALL\n"
	"  SELECT b, 1, fwid, pid, count(*), " MEDIAN("value") ", sum(runs), sum(sim)\n"
	"    FROM (SELECT fu.*, " RANKED("b, fwid, pid", "value") " FROM fu) y GROUP BY b, fwid, pid) x;\n"
	"@ANALYZE@fg;\n"
	"CREATE TEMP TABLE fgu @DROP@ AS\n"
	" SELECT g.g, u.rb, abs(u.value - g.med) AS dev, u.rb - row_number() OVER (PARTITION BY g.g ORDER BY u.rb) AS gap\n"
	"   FROM fg g JOIN fu u ON u.b = g.b AND u.fwid = g.fwid AND (g.pid IS NULL OR u.pid = g.pid);\n"
	"CREATE TEMP TABLE fgm @DROP@ AS\n"
	" SELECT g, " MEDIAN("dev") " AS mad FROM (SELECT g, dev, " RANKED("g", "dev") " FROM fgu) y GROUP BY g;\n"
	"CREATE TEMP TABLE fr @DROP@ AS\n"
	" SELECT r.g, r.b, r.n, lo.value + (hi.value - lo.value) * 0.5 AS med\n"
	"   FROM (SELECT r.g, r.b, r.n, r.k1 + count(*) FILTER (WHERE x.gap < r.k1) AS p1,\n"
	"                r.k2 + count(*) FILTER (WHERE x.gap < r.k2) AS p2\n"
	"           FROM (SELECT g.g, g.b, fb.n - g.n AS n, (fb.n - g.n + 1) / 2 AS k1, (fb.n - g.n) / 2 + 1 AS k2\n"
	"                   FROM fg g JOIN fb USING (b) WHERE fb.n > g.n) r\n"
	"           JOIN fgu x USING (g) GROUP BY r.g, r.b, r.n, r.k1, r.k2) r\n"
	"   JOIN fu lo ON lo.b = r.b AND lo.rb = r.p1 JOIN fu hi ON hi.b = r.b AND hi.rb = r.p2;\n"
	"CREATE TEMP TABLE frm @DROP@ AS\n"
	" SELECT g, " MEDIAN("dev") " AS mad, avg(dev) AS meanad\n"
	"   FROM (SELECT r.g, abs(u.value - r.med) AS dev, " RANKED("r.g", "abs(u.value - r.med)") "\n"
	"           FROM fr r JOIN fg gg ON gg.g = r.g\n"
	"           JOIN (SELECT DISTINCT b, fwid, pid FROM fu) p\n"
	"             ON p.b = r.b AND NOT (p.fwid = gg.fwid AND (gg.pid IS NULL OR p.pid = gg.pid))\n"
	"           JOIN fu u ON u.b = p.b AND u.pid = p.pid) y\n"
	"  GROUP BY g;\n";

static const char BLOCKS_SQL[] =
	"SELECT b, workload, params, model, node, n, med, mad, meanad, runs, sim FROM fb JOIN fs USING (b) ORDER BY b";
static const char GROUPS_SQL[] =
	"SELECT g.b, fv.firmware, COALESCE(pv.microcode, '(any)'), g.n, g.med, fgm.mad, r.n, r.med, frm.mad, frm.meanad,\n"
	"       g.runs, g.sim\n"
	"  FROM fg g JOIN fgm USING (g) LEFT JOIN fr r USING (g) LEFT JOIN frm USING (g)\n"
	"  JOIN (SELECT DISTINCT fwid, firmware FROM fun) fv USING (fwid) LEFT JOIN (SELECT DISTINCT pid, microcode FROM fun) pv USING (pid)\n"
	" ORDER BY g.b, g.by_uc, g.fwid, g.pid\n";
/* the outlier rule of bt_robust_stands_out, as (value - median) / scale
 * in the same order of operations, with at least BT_FLEET_MIN_MACHINES */
static const char OUTLIERS_SQL[] =
	"WITH s AS (SELECT b, med, n, CASE WHEN mad = 0 THEN @MEANAD@ * meanad ELSE mad END AS scale\n"
	"             FROM fb JOIN fs USING (b))\n"
	"SELECT u.b, m.machine_key, un.firmware, un.microcode, u.value\n"
	"  FROM fu u JOIN s USING (b) JOIN fun un USING (unit) JOIN machines m ON m.machine_id = un.machine_id\n"
	" WHERE s.n >= @MIN@ AND (CASE WHEN s.scale > 0 THEN abs((u.value - s.med) / s.scale) > @K@\n"
	"                          ELSE u.value <> s.med END)\n"
	" ORDER BY u.b, un.pid, m.machine_key@C@\n";
/* the bottleneck path's inputs: per (workload, params, model, node) the
 * median over every run's value, and how many runs flag it */
static const char PATHS_SQL[] =
	"SELECT name, params, model, node, min(parent@C@), " MEDIAN("value") ", count(*) FILTER (WHERE thresh <> 0),\n"
	"       count(thresh)\n"
	"  FROM (SELECT w.name, COALESCE(w.params, '') AS params, COALESCE(w.model, '') AS model, n.node,\n"
	"               COALESCE(n.parent, '') AS parent, n.value, n.thresh,\n"
	"               " RANKED("w.name, COALESCE(w.params, ''), COALESCE(w.model, ''), n.node", "n.value") "\n"
	"          FROM nodes n JOIN workloads w ON w.workload_id = n.workload_id\n"
	"         WHERE n.kind = 'tree' AND n.value IS NOT NULL) y\n"
	" GROUP BY name, params, model, node\n"
	" ORDER BY name@C@, params@C@, model@C@, node@C@";

/* tmpl with the dialect's words and the numbers filled in (free it). */
static char *fill(const char *tmpl, const struct bt_fleet_dialect *x, const char *node, double k)
{
	char num[3][40];
	snprintf(num[0], sizeof(num[0]), "%.17g", k);
	snprintf(num[1], sizeof(num[1]), "%.17g", BT_MEANAD_TO_MAD);
	snprintf(num[2], sizeof(num[2]), "%d", BT_FLEET_MIN_MACHINES);
	const char *const names[] = { "@C@", "@DROP@", "@ANALYZE@", "@NV@", "@NODE@", "@K@", "@MEANAD@", "@MIN@" };
	const char *const words[] = { x->collate_c, x->temp_drop, x->analyze, x->node_values, node, num[0], num[1],
				      num[2] };
	size_t n_names = sizeof(names) / sizeof(names[0]), len = 1;
	for (const char *p = tmpl; *p;) {
		size_t t = 0;
		while (t < n_names && strncmp(p, names[t], strlen(names[t])))
			t++;
		len += t < n_names ? strlen(words[t]) : 1;
		p += t < n_names ? strlen(names[t]) : 1;
	}
	char *out = malloc(len), *o = out;
	if (!out)
		return NULL;
	for (const char *p = tmpl; *p;) {
		size_t t = 0;
		while (t < n_names && strncmp(p, names[t], strlen(names[t])))
			t++;
		if (t < n_names) {
			o += sprintf(o, "%s", words[t]);
			p += strlen(names[t]);
		} else {
			*o++ = *p++;
		}
	}
	*o = 0;
	return out;
}

/* 'text' with each ' doubled: a string literal in both engines (PostgreSQL
 * with standard_conforming_strings, its default since 9.1); "NULL" for none. */
static char *literal(const char *s)
{
	if (!s)
		return strdup("NULL");
	size_t len = 3;
	for (const char *p = s; *p; p++)
		len += *p == '\'' ? 2 : 1;
	char *out = malloc(len), *o = out;
	if (!out)
		return NULL;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			*o++ = '\'';
		*o++ = *p;
	}
	*o++ = '\'';
	*o = 0;
	return out;
}

static double dval(const char *s)
{
	return s ? strtod(s, NULL) : NAN;
}

static size_t zval(const char *s)
{
	return s ? (size_t)strtoull(s, NULL, 10) : 0;
}

/* bt_robust_of's record from n, median, MAD and mean absolute deviation:
 * the scale rule is robust-stats.c's (the MAD, or 0.8453 x the mean
 * absolute deviation when the MAD is 0). */
static struct bt_robust robust(size_t n, double med, double mad, double meanad)
{
	struct bt_robust r = { n, NAN, NAN, NAN, 0 };
	if (!n)
		return r;
	r.median = med;
	r.mad = mad;
	r.scale = mad;
	if (mad == 0) {
		r.scale = BT_MEANAD_TO_MAD * meanad;
		r.scale_is_meanad = 1;
	}
	return r;
}

/* The rows of a result kept: every cell copied (NULL stays NULL). */
struct table {
	char **cell;
	size_t rows, cols, cap;
};

static bt_status keep_row(void *ctx, const char *const *col, int n)
{
	struct table *t = ctx;
	t->cols = (size_t)n;
	char **g = bt_fleet_grow(t->cell, &t->cap, (t->rows + 1) * t->cols - 1, sizeof(*g));
	if (!g)
		return BT_ERR_NOMEM;
	t->cell = g;
	for (int i = 0; i < n; i++) {
		char **c = &t->cell[t->rows * t->cols + (size_t)i];
		*c = col[i] ? strdup(col[i]) : NULL;
		if (col[i] && !*c) {
			while (i--)
				free(t->cell[t->rows * t->cols + (size_t)i]);
			return BT_ERR_NOMEM;
		}
	}
	t->rows++;
	return BT_OK;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->rows * t->cols; i++)
		free(t->cell[i]);
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

static const char *at(const struct table *t, size_t row, size_t col)
{
	return t->cell[row * t->cols + col];
}

/* The blocks of the summary, in order, each with its units that stand out
 * and its groups, to fn. */
static bt_status hand_on(const struct table *bl, const struct table *gr, const struct table *ou,
			 bt_fleet_block_fn fn, void *ctx)
{
	struct bt_fleet_group *groups = malloc((gr->rows + 1) * sizeof(*groups));
	struct bt_fleet_unit_out *outs = malloc((ou->rows + 1) * sizeof(*outs));
	bt_status rc = groups && outs ? BT_OK : BT_ERR_NOMEM;
	size_t gi = 0, oi = 0;
	for (size_t i = 0; i < bl->rows && rc == BT_OK; i++) {
		long long b = strtoll(at(bl, i, 0), NULL, 10);
		struct bt_fleet_block blk = { at(bl, i, 1), at(bl, i, 2), at(bl, i, 3), at(bl, i, 4),
					      robust(zval(at(bl, i, 5)), dval(at(bl, i, 6)), dval(at(bl, i, 7)),
						     dval(at(bl, i, 8))),
					      zval(at(bl, i, 10)), zval(at(bl, i, 9)), 0, outs, 0, groups };
		for (; oi < ou->rows && strtoll(at(ou, oi, 0), NULL, 10) == b; oi++)
			outs[blk.n_out++] = (struct bt_fleet_unit_out){ at(ou, oi, 1), at(ou, oi, 2), at(ou, oi, 3),
									dval(at(ou, oi, 4)) };
		for (; gi < gr->rows && strtoll(at(gr, gi, 0), NULL, 10) == b; gi++)
			groups[blk.n_groups++] = (struct bt_fleet_group){
				at(gr, gi, 1), at(gr, gi, 2), zval(at(gr, gi, 3)), dval(at(gr, gi, 4)), dval(at(gr, gi, 5)),
				robust(zval(at(gr, gi, 6)), dval(at(gr, gi, 7)), dval(at(gr, gi, 8)), dval(at(gr, gi, 9))),
				zval(at(gr, gi, 11)), zval(at(gr, gi, 10)) };
		rc = fn(ctx, &blk);
	}
	free(groups);
	free(outs);
	return rc;
}

bt_status bt_fleet_summary_blocks(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o,
				  bt_fleet_block_fn fn, void *ctx, struct bt_diag *d)
{
	const struct bt_fleet_engine *e = s->e;
	char *node = literal(o->node);
	char *sql = node ? fill(SUMMARY_SQL, e->dialect, node, o->k) : NULL;
	char *outl = fill(OUTLIERS_SQL, e->dialect, "NULL", o->k);
	char *groups = fill(GROUPS_SQL, e->dialect, "NULL", o->k);
	struct table bl = { 0 }, gr = { 0 }, ou = { 0 };
	bt_status rc = sql && outl && groups ? BT_OK : BT_ERR_NOMEM;
	if (rc == BT_OK)
		rc = e->exec(s, e->dialect->summary_begin, d);
	if (rc == BT_OK) {
		if ((rc = e->exec(s, sql, d)) == BT_OK && (rc = e->rows(s, BLOCKS_SQL, keep_row, &bl, d)) == BT_OK &&
		    (rc = e->rows(s, groups, keep_row, &gr, d)) == BT_OK &&
		    (rc = e->rows(s, outl, keep_row, &ou, d)) == BT_OK)
			rc = hand_on(&bl, &gr, &ou, fn, ctx);
		struct bt_diag ignored;
		e->exec(s, "ROLLBACK", &ignored);  /* drops the temporary tables */
	}
	table_free(&bl);
	table_free(&gr);
	table_free(&ou);
	free(node);
	free(sql);
	free(outl);
	free(groups);
	return rc;
}

bt_status bt_fleet_summary_paths(struct bt_fleet_store *s, bt_fleet_path_fn fn, void *ctx, struct bt_diag *d)
{
	const struct bt_fleet_engine *e = s->e;
	char *sql = fill(PATHS_SQL, e->dialect, "NULL", 0);
	struct table t = { 0 };
	bt_status rc = sql ? e->exec(s, e->dialect->summary_begin, d) : BT_ERR_NOMEM;
	if (rc == BT_OK) {
		rc = e->rows(s, sql, keep_row, &t, d);
		struct bt_diag ignored;
		e->exec(s, "ROLLBACK", &ignored);
	}
	struct bt_fleet_path_node *p = malloc((t.rows + 1) * sizeof(*p));
	if (rc == BT_OK && !p)
		rc = BT_ERR_NOMEM;
	for (size_t i = 0; i < t.rows && rc == BT_OK;) {
		size_t end = i, n = 0;
		while (end < t.rows && !strcmp(at(&t, end, 0), at(&t, i, 0)) && !strcmp(at(&t, end, 1), at(&t, i, 1)) &&
		       !strcmp(at(&t, end, 2), at(&t, i, 2))) {
			p[n++] = (struct bt_fleet_path_node){ at(&t, end, 3), at(&t, end, 4), dval(at(&t, end, 5)),
							      zval(at(&t, end, 6)), zval(at(&t, end, 7)) };
			end++;
		}
		rc = fn(ctx, at(&t, i, 0), at(&t, i, 1), at(&t, i, 2), p, n);
		i = end;
	}
	free(p);
	table_free(&t);
	free(sql);
	return rc;
}

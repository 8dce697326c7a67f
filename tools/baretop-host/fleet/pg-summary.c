/* SPDX-License-Identifier: MIT */
/*
 * The fleet summary of the PostgreSQL engine (store.h: blocks, paths),
 * computed by the server: unit values, medians, MADs (a second pass over
 * |value - median|), outliers and the groups against the rest of the
 * fleet, with percentile_cont(0.5) (the mean of the two middle values for
 * an even count, as bt_median_inplace); only the fleet rows, group rows
 * and the units that stand out come back. The SQLite engine computes the
 * same in C (summary.c, bt_fleet_block_of_units).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/robust-stats.h"
#include "tools/baretop-host/fleet/pg.h"
#include "tools/baretop-host/fleet/summary.h"

static double dval(PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NAN : strtod(PQgetvalue(res, row, col), NULL);
}

static size_t zval(PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? 0 : (size_t)strtoull(PQgetvalue(res, row, col), NULL, 10);
}

/* bt_robust_of's record from the server's n, median, MAD and mean absolute
 * deviation: the scale rule is robust-stats.c's (the MAD, or 0.8453 x the
 * mean absolute deviation when the MAD is 0). */
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

/* The summary's SQL (docs/fleet-schema.md, "The summary in SQL").
 * Temporary tables, dropped at the end of the summary's one REPEATABLE
 * READ transaction (one snapshot while importers write), each ANALYZEd
 * before it is joined (a temporary table has no statistics otherwise);
 * the work is keyed by integers, never sorted by text:
 *   fn, fk, fun: ids of tree node names (nid: one per node text), of
 *       workload kinds (k: name, params, model) and of units (machine,
 *       firmware version, microcode; fwid and pid number the versions and
 *       the (version, microcode) partitions in byte order, COLLATE "C" as
 *       strcmp and SQLite); fr0, fw: each run's and workload's unit;
 *   fu0: a unit's median per (k, nid): one sorted pass, the middle rows
 *       by row_number (lo + (hi - lo) * 0.5, as percentile_cont and
 *       bt_median_inplace), not a sort per unit;
 *   fb, fu, fs: blocks numbered in the text's order with the fleet
 *       median, units ranked in their block (rb: by value, then unit),
 *       the MAD and mean absolute deviation (a second pass);
 *   fg, fgu, fgm: groups (version "(any)" when it has more than one
 *       microcode; each version and microcode), their members with
 *       gap = rb - (rank in the group), median and MAD;
 *   fr: the rest of the fleet's median per group: gap counts the units
 *       outside the group ahead of a member, so the rest's k-th unit is
 *       the block's unit of rank k + (members with gap < k): two lookups
 *       per group instead of a group x unit join;
 *   frm: the rest's MAD and mean absolute deviation (distances from the
 *       rest's median, which differ per group: the rest's units read
 *       once per group, joined by partition). */
static const char SUMMARY_SQL[] =
	"SET LOCAL work_mem = '256MB';\n"
	"SET LOCAL jit = off;\n"
	"CREATE TEMP TABLE fn ON COMMIT DROP AS\n"
	" SELECT name_id, dense_rank() OVER (ORDER BY node COLLATE \"C\") AS nid, node, level FROM node_names\n"
	"  WHERE kind = 'tree' AND (%s::text IS NULL OR node = %s::text);\n"
	"CREATE TEMP TABLE fk ON COMMIT DROP AS\n"
	" SELECT row_number() OVER () AS k, x.* FROM\n"
	"  (SELECT DISTINCT name AS workload, COALESCE(params, '') AS params, COALESCE(model, '') AS model FROM workloads) x;\n"
	"CREATE TEMP TABLE fun ON COMMIT DROP AS\n"
	" SELECT row_number() OVER () AS unit, dense_rank() OVER (ORDER BY firmware COLLATE \"C\") AS fwid,\n"
	"        dense_rank() OVER (ORDER BY firmware COLLATE \"C\", microcode COLLATE \"C\") AS pid, x.*\n"
	"   FROM (SELECT DISTINCT r.machine_id, f.version AS firmware, COALESCE(r.microcode, 'unknown') AS microcode\n"
	"           FROM runs r JOIN firmware f USING (firmware_id)) x;\n"
	"ANALYZE fn, fk, fun;\n"
	"CREATE TEMP TABLE fr0 ON COMMIT DROP AS\n"
	" SELECT r.run_id, u.unit, r.simulated FROM runs r JOIN firmware f USING (firmware_id)\n"
	"   JOIN fun u ON u.machine_id = r.machine_id AND u.firmware = f.version AND u.microcode = COALESCE(r.microcode, 'unknown');\n"
	"ANALYZE fr0;\n"
	"CREATE TEMP TABLE fw ON COMMIT DROP AS\n"
	" SELECT w.workload_id, k.k, x.unit, (x.simulated <> 0 OR w.simulated <> 0) AS sim\n"
	"   FROM workloads w JOIN fr0 x USING (run_id)\n"
	"   JOIN fk k ON k.workload = w.name AND k.params = COALESCE(w.params, '') AND k.model = COALESCE(w.model, '');\n"
	"ANALYZE fw;\n"
	"CREATE TEMP TABLE fu0 ON COMMIT DROP AS\n"
	" SELECT k, nid, unit, min(level) AS level,\n"
	"        min(value) FILTER (WHERE i IN ((c + 1) / 2, c / 2 + 1))\n"
	"          + (max(value) FILTER (WHERE i IN ((c + 1) / 2, c / 2 + 1))\n"
	"             - min(value) FILTER (WHERE i IN ((c + 1) / 2, c / 2 + 1))) * 0.5 AS value,\n"
	"        count(*) AS runs, count(*) FILTER (WHERE sim) AS sim\n"
	"   FROM (SELECT v.k, n.nid, v.unit, n.level, v.value, v.sim, row_number() OVER w AS i,\n"
	"                count(*) OVER (PARTITION BY v.k, n.nid, v.unit) AS c\n"
	"           FROM (SELECT x.k, x.unit, x.sim, unnest(nv.name_ids) AS name_id, unnest(nv.vals) AS value\n"
	"                   FROM node_values nv JOIN fw x USING (workload_id)) v\n"
	"           JOIN fn n USING (name_id)\n"
	"          WHERE v.value IS NOT NULL\n"
	"         WINDOW w AS (PARTITION BY v.k, n.nid, v.unit ORDER BY v.value)) y\n"
	"  GROUP BY k, nid, unit;\n"
	"ANALYZE fu0;\n"
	"CREATE TEMP TABLE fb ON COMMIT DROP AS\n"
	" SELECT row_number() OVER (ORDER BY k.workload COLLATE \"C\", k.params COLLATE \"C\", k.model COLLATE \"C\",\n"
	"                           x.level, n.node COLLATE \"C\") AS b, x.*, k.workload, k.params, k.model, n.node\n"
	"   FROM (SELECT k, nid, min(level) AS level, count(*) AS n,\n"
	"                percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS med, sum(runs) AS runs, sum(sim) AS sim\n"
	"           FROM fu0 GROUP BY k, nid) x\n"
	"   JOIN fk k USING (k) JOIN (SELECT DISTINCT nid, node FROM fn) n USING (nid);\n"
	"ANALYZE fb;\n"
	"CREATE TEMP TABLE fu ON COMMIT DROP AS\n"
	" SELECT fb.b, u.unit, un.fwid, un.pid, u.value, u.runs, u.sim,\n"
	"        row_number() OVER (PARTITION BY fb.b ORDER BY u.value, u.unit) AS rb\n"
	"   FROM fu0 u JOIN fb USING (k, nid) JOIN fun un USING (unit);\n"
	"ANALYZE fu;\n"
	"CREATE TEMP TABLE fs ON COMMIT DROP AS\n"
	" SELECT u.b, percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(u.value - fb.med)) AS mad,\n"
	"        avg(abs(u.value - fb.med)) AS meanad\n"
	"   FROM fu u JOIN fb USING (b) GROUP BY u.b;\n"
	"CREATE TEMP TABLE fg ON COMMIT DROP AS\n"
	" SELECT row_number() OVER () AS g, x.* FROM (\n"
	"  SELECT b, 0 AS by_uc, fwid, NULL::bigint AS pid, count(*) AS n,\n"
	"         percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS med, sum(runs) AS runs, sum(sim) AS sim\n"
	"    FROM fu GROUP BY b, fwid HAVING count(DISTINCT pid) > 1\n"
	"  UNION ALL\n"
	"  SELECT b, 1, fwid, pid, count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY value), sum(runs), sum(sim)\n"
	"    FROM fu GROUP BY b, fwid, pid) x;\n"
	"ANALYZE fg;\n"
	"CREATE TEMP TABLE fgu ON COMMIT DROP AS\n"
	" SELECT g.g, u.rb, abs(u.value - g.med) AS dev, u.rb - row_number() OVER (PARTITION BY g.g ORDER BY u.rb) AS gap\n"
	"   FROM fg g JOIN fu u ON u.b = g.b AND u.fwid = g.fwid AND (g.pid IS NULL OR u.pid = g.pid);\n"
	"CREATE TEMP TABLE fgm ON COMMIT DROP AS\n"
	" SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY dev) AS mad FROM fgu GROUP BY g;\n"
	"CREATE TEMP TABLE fr ON COMMIT DROP AS\n"
	" SELECT r.g, r.b, r.n, lo.value + (hi.value - lo.value) * 0.5 AS med\n"
	"   FROM (SELECT r.g, r.b, r.n, r.k1 + count(*) FILTER (WHERE x.gap < r.k1) AS p1,\n"
	"                r.k2 + count(*) FILTER (WHERE x.gap < r.k2) AS p2\n"
	"           FROM (SELECT g.g, g.b, fb.n - g.n AS n, (fb.n - g.n + 1) / 2 AS k1, (fb.n - g.n) / 2 + 1 AS k2\n"
	"                   FROM fg g JOIN fb USING (b) WHERE fb.n > g.n) r\n"
	"           JOIN fgu x USING (g) GROUP BY r.g, r.b, r.n, r.k1, r.k2) r\n"
	"   JOIN fu lo ON lo.b = r.b AND lo.rb = r.p1 JOIN fu hi ON hi.b = r.b AND hi.rb = r.p2;\n"
	"CREATE TEMP TABLE frm ON COMMIT DROP AS\n"
	" SELECT r.g, percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(u.value - r.med)) AS mad,\n"
	"        avg(abs(u.value - r.med)) AS meanad\n"
	"   FROM fr r JOIN fg g USING (g)\n"
	"   JOIN (SELECT DISTINCT b, fwid, pid FROM fu) p ON p.b = r.b AND NOT (p.fwid = g.fwid AND (g.pid IS NULL OR p.pid = g.pid))\n"
	"   JOIN fu u ON u.b = p.b AND u.pid = p.pid\n"
	"  GROUP BY r.g;\n";

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
	"WITH s AS (SELECT b, med, n, CASE WHEN mad = 0 THEN %.17g * meanad ELSE mad END AS scale\n"
	"             FROM fb JOIN fs USING (b))\n"
	"SELECT u.b, m.machine_key, un.firmware, un.microcode, u.value\n"
	"  FROM fu u JOIN s USING (b) JOIN fun un USING (unit) JOIN machines m ON m.machine_id = un.machine_id\n"
	" WHERE s.n >= %d AND (CASE WHEN s.scale > 0 THEN abs((u.value - s.med) / s.scale) > %.17g\n"
	"                          ELSE u.value <> s.med END)\n"
	" ORDER BY u.b, un.pid, m.machine_key COLLATE \"C\"\n";

/* The result of sql, or NULL with the server's message in d. */
static PGresult *query(struct bt_fleet_store *s, const char *sql, struct bt_diag *d)
{
	PGresult *res = PQexec(conn(s), sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK) {
		bt_fleet_pg_failed(res, s, "fleet summary (PostgreSQL)", d);
		return NULL;
	}
	return res;
}

bt_status bt_fleet_pg_blocks(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o, bt_fleet_block_fn fn,
			   void *ctx, struct bt_diag *d)
{
	char *lit = o->node ? PQescapeLiteral(conn(s), o->node, strlen(o->node)) : NULL;
	if (o->node && !lit) {
		bt_diag_set(d, "fleet summary (PostgreSQL): %s", PQerrorMessage(conn(s)));
		return BT_ERR_NOMEM;
	}
	const char *node = lit ? lit : "NULL";
	size_t len = sizeof(SUMMARY_SQL) + 2 * strlen(node);
	char *sql = malloc(len), outl[sizeof(OUTLIERS_SQL) + 128];
	if (sql)
		snprintf(sql, len, SUMMARY_SQL, node, node);
	if (lit)
		PQfreemem(lit);
	if (!sql)
		return BT_ERR_NOMEM;
	snprintf(outl, sizeof(outl), OUTLIERS_SQL, BT_MEANAD_TO_MAD, BT_FLEET_MIN_MACHINES, o->k);
	PGresult *bl = NULL, *gr = NULL, *ou = NULL, *res;
	struct bt_fleet_group *groups = NULL;
	struct bt_fleet_unit_out *outs = NULL;
	bt_status rc = BT_ERR_IO;
	if (!(res = query(s, "BEGIN ISOLATION LEVEL REPEATABLE READ", d)))
		goto out;
	PQclear(res);
	if (!(res = query(s, sql, d)))
		goto out;
	PQclear(res);
	if (!(bl = query(s, BLOCKS_SQL, d)) || !(gr = query(s, GROUPS_SQL, d)) || !(ou = query(s, outl, d)))
		goto out;
	groups = malloc(((size_t)PQntuples(gr) + 1) * sizeof(*groups));
	outs = malloc(((size_t)PQntuples(ou) + 1) * sizeof(*outs));
	rc = groups && outs ? BT_OK : BT_ERR_NOMEM;
	int gi = 0, oi = 0;
	for (int i = 0; i < PQntuples(bl) && rc == BT_OK; i++) {
		long long b = strtoll(PQgetvalue(bl, i, 0), NULL, 10);
		struct bt_fleet_block blk = { PQgetvalue(bl, i, 1), PQgetvalue(bl, i, 2), PQgetvalue(bl, i, 3),
					      PQgetvalue(bl, i, 4),
					      robust(zval(bl, i, 5), dval(bl, i, 6), dval(bl, i, 7), dval(bl, i, 8)),
					      zval(bl, i, 10), zval(bl, i, 9), 0, outs, 0, groups };
		for (; oi < PQntuples(ou) && strtoll(PQgetvalue(ou, oi, 0), NULL, 10) == b; oi++)
			outs[blk.n_out++] = (struct bt_fleet_unit_out){ PQgetvalue(ou, oi, 1), PQgetvalue(ou, oi, 2),
									PQgetvalue(ou, oi, 3), dval(ou, oi, 4) };
		for (; gi < PQntuples(gr) && strtoll(PQgetvalue(gr, gi, 0), NULL, 10) == b; gi++) {
			struct bt_fleet_group *g = &groups[blk.n_groups++];
			*g = (struct bt_fleet_group){ PQgetvalue(gr, gi, 1), PQgetvalue(gr, gi, 2), zval(gr, gi, 3),
						      dval(gr, gi, 4), dval(gr, gi, 5),
						      robust(zval(gr, gi, 6), dval(gr, gi, 7), dval(gr, gi, 8),
							     dval(gr, gi, 9)),
						      zval(gr, gi, 11), zval(gr, gi, 10) };
		}
		blk.groups = groups;
		blk.out = outs;
		rc = fn(ctx, &blk);
	}
out:
	free(groups);
	free(outs);
	PQclear(bl);
	PQclear(gr);
	PQclear(ou);
	free(sql);
	res = PQexec(conn(s), "ROLLBACK");  /* drops the temporary tables */
	PQclear(res);
	return rc;
}

bt_status bt_fleet_pg_paths(struct bt_fleet_store *s, bt_fleet_path_fn fn, void *ctx, struct bt_diag *d)
{
	/* its sort of every tree value by text spilled to disk with the
	 * default work_mem (4 MB): 256 MB for this transaction only */
	PGresult *res = query(s, "BEGIN; SET LOCAL work_mem = '256MB'; SET LOCAL jit = off", d);
	if (!res)
		return BT_ERR_IO;
	PQclear(res);
	res = query(s,
		"SELECT w.name, COALESCE(w.params, ''), COALESCE(w.model, ''), n.node,\n"
		"       min(COALESCE(n.parent, '') COLLATE \"C\"),\n"
		"       percentile_cont(0.5) WITHIN GROUP (ORDER BY n.value), count(*) FILTER (WHERE n.thresh <> 0),\n"
		"       count(n.thresh)\n"
		"  FROM nodes n JOIN workloads w ON w.workload_id = n.workload_id\n"
		" WHERE n.kind = 'tree' AND n.value IS NOT NULL\n"
		" GROUP BY 1, 2, 3, 4\n"
		" ORDER BY w.name COLLATE \"C\", COALESCE(w.params, '') COLLATE \"C\", COALESCE(w.model, '') COLLATE \"C\",\n"
		"          n.node COLLATE \"C\"", d);
	if (!res) {
		PQclear(PQexec(conn(s), "ROLLBACK"));
		return BT_ERR_IO;
	}
	int rows = PQntuples(res);
	struct bt_fleet_path_node *p = malloc(((size_t)rows + 1) * sizeof(*p));
	bt_status rc = p ? BT_OK : BT_ERR_NOMEM;
	for (int i = 0; i < rows && rc == BT_OK;) {
		int e = i;
		size_t n = 0;
		while (e < rows && !strcmp(PQgetvalue(res, e, 0), PQgetvalue(res, i, 0)) &&
		       !strcmp(PQgetvalue(res, e, 1), PQgetvalue(res, i, 1)) &&
		       !strcmp(PQgetvalue(res, e, 2), PQgetvalue(res, i, 2))) {
			p[n++] = (struct bt_fleet_path_node){ PQgetvalue(res, e, 3), PQgetvalue(res, e, 4),
							      dval(res, e, 5), zval(res, e, 6), zval(res, e, 7) };
			e++;
		}
		rc = fn(ctx, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), PQgetvalue(res, i, 2), p, n);
		i = e;
	}
	free(p);
	PQclear(res);
	PQclear(PQexec(conn(s), "COMMIT"));
	return rc;
}


/* SPDX-License-Identifier: MIT */
/*
 * The fleet store's SQLite engine (store.h): the default, one file,
 * no server. Schema: the shared tables of sql.c, this engine's value
 * tables below, docs/fleet-schema.md. The import is one
 * transaction; each results file a savepoint in it (a file that fails is
 * rolled back alone, and the file is synced once, at the end). The
 * summary's statistics are computed in C from the unit values
 * (bt_fleet_block_of_units): SQLite has no percentile function.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/baretop-host/fleet/sql.h"
#include "base/array.h"
#include "tools/baretop-host/fleet/summary.h"

/* This engine's value tables and views (the shared tables come first,
 * from sql.c). Keep in step with docs/fleet-schema.md. user_version says
 * which schema a database file has; a file with another version is
 * refused. */
static const char SQ_SCHEMA_HEAD[] = "PRAGMA foreign_keys = ON;\n";
static const char SQ_SCHEMA[] =
	/* Compact store (schema 3): each node name (with its kind, level and
	 * parent; "" for absent) and each event name once, referenced by id;
	 * the values in tables without rowid keyed by (workload, name); schema 4
	 * keeps a node's state (ok, missing, not_measured, ...: 2 to 12 bytes of
	 * text in every row, a quarter of a run's bytes) as the id of its name
	 * in node_states. The views nodes and events read as the tables of
	 * schema 2 did. Event
	 * min, max, raw_median and overhead stay in the results file
	 * (runs.source_file), as do consistency texts, notes and steps. */
	"CREATE TABLE IF NOT EXISTS node_states (\n"
	"  state_id INTEGER PRIMARY KEY, state TEXT NOT NULL UNIQUE\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS node_values (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(workload_id),\n"
	"  name_id INTEGER NOT NULL REFERENCES node_names(name_id),\n"
	"  state_id INTEGER REFERENCES node_states(state_id),  -- NULL: the file gives no state\n"
	"  value REAL,                         -- NULL: not computed in this run\n"
	"  thresh INTEGER,                     -- 1 flagged, 0 not, NULL unknown\n"
	"  PRIMARY KEY (workload_id, name_id)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS event_values (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(workload_id),\n"
	"  event_id INTEGER NOT NULL REFERENCES event_names(event_id),\n"
	"  median REAL NOT NULL,               -- median overhead-corrected count\n"
	"  counter_group INTEGER,              -- -1: counted in every group\n"
	"  PRIMARY KEY (workload_id, event_id)\n"
	") WITHOUT ROWID;\n"
	"CREATE VIEW IF NOT EXISTS nodes AS\n"
	"  SELECT v.workload_id, n.node, NULLIF(n.kind, '') AS kind, n.level, NULLIF(n.parent, '') AS parent,\n"
	"         s.state, v.value, v.thresh\n"
	"    FROM node_values v JOIN node_names n ON n.name_id = v.name_id\n"
	"    LEFT JOIN node_states s ON s.state_id = v.state_id;\n"
	"CREATE VIEW IF NOT EXISTS events AS\n"
	"  SELECT v.workload_id, e.event, v.median, v.counter_group\n"
	"    FROM event_values v JOIN event_names e ON e.event_id = v.event_id;\n"
	"PRAGMA user_version = 4;\n";

struct sqlite_store {
	struct bt_fleet_store s;
	sqlite3 *db;
	sqlite3_stmt *machine_ins, *machine_sel, *fw_ins, *fw_sel, *run_ins, *wl_ins, *node_ins, *event_ins;
	sqlite3_stmt *nn_ins, *nn_sel, *en_ins, *en_sel, *st_ins, *st_sel;
	/* node_states ids seen in this import; forgotten when a file's
	 * savepoint is rolled back (its new states with it) */
	struct { char *state; int64_t id; } states[16];
	int n_states;
};

static sqlite3 *db_of(struct bt_fleet_store *s)
{
	return ((struct sqlite_store *)s)->db;
}

static bt_status fail(struct bt_fleet_store *s, struct bt_diag *d, const char *what)
{
	bt_diag_set(d, "%s: %s", what, sqlite3_errmsg(db_of(s)));
	return BT_ERR_IO;
}

/* Binds NULL for absent strings and NaN numbers: absent is NULL in the database too. */
static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static void bind_int_or_null(sqlite3_stmt *st, int i, int v, int is_null)
{
	if (is_null)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int(st, i, v);
}

/* Steps a statement once and resets it (kept prepared for the next file). */
static int step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

static bt_status sq_begin_file(struct bt_fleet_store *s, struct bt_diag *d)
{
	sqlite3 *db = db_of(s);
	if (sqlite3_get_autocommit(db) && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, d, "BEGIN");
	if (sqlite3_exec(db, "SAVEPOINT one_file", NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, d, "SAVEPOINT");
	return BT_OK;
}

static void forget_states(struct sqlite_store *q)
{
	for (int i = 0; i < q->n_states; i++)
		free(q->states[i].state);
	q->n_states = 0;
}

static bt_status sq_end_file(struct bt_fleet_store *s, int commit, struct bt_diag *d)
{
	if (!commit)
		forget_states((struct sqlite_store *)s);
	const char *sql = commit ? "RELEASE one_file" : "ROLLBACK TO one_file; RELEASE one_file";
	if (sqlite3_exec(db_of(s), sql, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, d, commit ? "RELEASE" : "ROLLBACK");
	return BT_OK;
}

/* INSERT OR IGNORE the row keyed by vals[0], then its id. */
static bt_status key_id(struct bt_fleet_store *s, sqlite3_stmt *ins, sqlite3_stmt *sel, const char *const *vals,
		  int n, int64_t *id, struct bt_diag *d)
{
	for (int i = 0; i < n; i++)
		bind_text(ins, i + 1, vals[i]);
	if (step_done(ins) != 0)
		return fail(s, d, "insert");
	bind_text(sel, 1, vals[0]);
	int rc = sqlite3_step(sel);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(sel, 0) : -1;
	sqlite3_reset(sel);
	return *id < 0 ? fail(s, d, "select") : BT_OK;
}

static bt_status sq_machine_id(struct bt_fleet_store *s, const char *const vals[12], int64_t *id, struct bt_diag *d)
{
	struct sqlite_store *q = (struct sqlite_store *)s;
	return key_id(s, q->machine_ins, q->machine_sel, vals, 12, id, d);
}

static bt_status sq_firmware_id(struct bt_fleet_store *s, const char *const vals[5], int64_t *id, struct bt_diag *d)
{
	struct sqlite_store *q = (struct sqlite_store *)s;
	return key_id(s, q->fw_ins, q->fw_sel, vals, 5, id, d);
}

static bt_status sq_insert_run(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t machine, int64_t fw,
			 const char *file, int *inserted, struct bt_diag *d)
{
	sqlite3_stmt *st = ((struct sqlite_store *)s)->run_ins;
	bind_text(st, 1, r->run_id);
	bind_text(st, 2, r->run_id_source);
	sqlite3_bind_int64(st, 3, machine);
	sqlite3_bind_int64(st, 4, fw);
	bind_text(st, 5, r->microcode);
	sqlite3_bind_int64(st, 6, r->sequence);
	bind_text(st, 7, r->firmware_clock);
	bind_text(st, 8, r->baretop_version);
	sqlite3_bind_int(st, 9, r->simulated);
	bind_int_or_null(st, 10, r->exit_status, r->exit_status < 0);
	bind_real(st, 11, r->memory_total_mib);
	bind_real(st, 12, r->fpdt_reset_end_ns);
	bind_text(st, 13, file);
	bind_int_or_null(st, 14, r->secure_boot, r->secure_boot < 0);
	if (step_done(st) != 0)
		return fail(s, d, "runs");
	*inserted = sqlite3_changes(db_of(s)) == 1;
	return BT_OK;
}

static bt_status sq_insert_workloads(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t *ids,
			       struct bt_diag *d)
{
	sqlite3_stmt *ws = ((struct sqlite_store *)s)->wl_ins;
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		bind_text(ws, 1, r->run_id);
		sqlite3_bind_int64(ws, 2, (sqlite3_int64)k);
		bind_text(ws, 3, w->name);
		bind_text(ws, 4, w->params);
		sqlite3_bind_int(ws, 5, w->cpu);
		bind_text(ws, 6, w->state);
		sqlite3_bind_int(ws, 7, w->counted);
		sqlite3_bind_int(ws, 8, w->simulated);
		bind_text(ws, 9, w->model);
		if (step_done(ws) != 0)
			return fail(s, d, "workloads");
		ids[k] = sqlite3_last_insert_rowid(db_of(s));
	}
	return BT_OK;
}

static bt_status sq_dict_id(struct bt_fleet_store *s, int dict, const char *const key[4], int64_t *id,
		      struct bt_diag *d)
{
	struct sqlite_store *q = (struct sqlite_store *)s;
	int n = dict == BT_FLEET_DICT_NODE ? 4 : 1;
	sqlite3_stmt *ins = n == 4 ? q->nn_ins : q->en_ins, *sel = n == 4 ? q->nn_sel : q->en_sel;
	for (int i = 0; i < n; i++) {
		bind_text(ins, i + 1, key[i]);
		bind_text(sel, i + 1, key[i]);
	}
	if (step_done(ins) != 0)
		return fail(s, d, n == 4 ? "node_names" : "event_names");
	int rc = sqlite3_step(sel);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(sel, 0) : -1;
	sqlite3_reset(sel);
	return *id < 0 ? fail(s, d, "names") : BT_OK;
}

/* The node_states id of a state (inserted when new), -1 on error. */
static int64_t state_id(struct sqlite_store *q, const char *state)
{
	for (int i = 0; i < q->n_states; i++)
		if (!strcmp(q->states[i].state, state))
			return q->states[i].id;
	sqlite3_bind_text(q->st_ins, 1, state, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q->st_sel, 1, state, -1, SQLITE_TRANSIENT);
	if (step_done(q->st_ins) != 0 || sqlite3_step(q->st_sel) != SQLITE_ROW) {
		sqlite3_reset(q->st_sel);
		return -1;
	}
	int64_t id = sqlite3_column_int64(q->st_sel, 0);
	sqlite3_reset(q->st_sel);
	char *copy = q->n_states < (int)(BT_ARRAY_SIZE(q->states)) ? bt_fleet_dup(state) : NULL;
	if (copy) {   /* without room or memory the id is only not remembered */
		q->states[q->n_states].state = copy;
		q->states[q->n_states++].id = id;
	}
	return id;
}

static bt_status sq_insert_values(struct bt_fleet_store *s, const struct bt_fleet_run *r, const int64_t *ids,
			    char *const *keep, int64_t *const *name, struct bt_diag *d)
{
	struct sqlite_store *q = (struct sqlite_store *)s;
	sqlite3_stmt *ns = q->node_ins, *es = q->event_ins;
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		for (size_t i = 0; i < w->n_nodes; i++) {
			const struct bt_fleet_node *n = &w->nodes[i];
			if (!keep[k][i])
				continue;
			sqlite3_bind_int64(ns, 1, ids[k]);
			sqlite3_bind_int64(ns, 2, name[k][i]);
			if (n->state) {
				int64_t st = state_id(q, n->state);
				if (st < 0)
					return fail(s, d, "node_states");
				sqlite3_bind_int64(ns, 3, st);
			} else {
				sqlite3_bind_null(ns, 3);
			}
			bind_real(ns, 4, n->has_value ? n->value : NAN);
			bind_int_or_null(ns, 5, n->thresh, n->thresh < 0);
			if (step_done(ns) != 0)
				return fail(s, d, "node_values");
		}
		for (size_t i = 0; i < w->n_events; i++) {
			const struct bt_fleet_event *e = &w->events[i];
			if (!keep[k][w->n_nodes + i])
				continue;
			sqlite3_bind_int64(es, 1, ids[k]);
			sqlite3_bind_int64(es, 2, name[k][w->n_nodes + i]);
			sqlite3_bind_double(es, 3, e->median);
			sqlite3_bind_int(es, 4, e->group);
			if (step_done(es) != 0)
				return fail(s, d, "event_values");
		}
	}
	return BT_OK;
}

static bt_status sq_finish(struct bt_fleet_store *s, struct bt_diag *d)
{
	sqlite3 *db = db_of(s);
	if (sqlite3_get_autocommit(db))
		return BT_OK;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		fail(s, d, "COMMIT");
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return BT_ERR_IO;
	}
	return BT_OK;
}

static bt_status sq_query_one(struct bt_fleet_store *s, const char *sql, const char *param, long long *n,
			      char *text, size_t len, struct bt_diag *d)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db_of(s), sql, -1, &st, NULL) != SQLITE_OK)
		return fail(s, d, "query");
	if (param)
		sqlite3_bind_text(st, 1, param, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*n = -1;
	if (text && len)
		text[0] = 0;
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*n = sqlite3_column_int64(st, 0);
		if (text && len)
			snprintf(text, len, "%s", (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? BT_OK : fail(s, d, "query");
}

static bt_status sq_node_names(struct bt_fleet_store *s, bt_status (*fn)(void *ctx, const char *name), void *ctx,
			       struct bt_diag *d)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db_of(s), "SELECT DISTINCT node FROM nodes WHERE kind = 'tree'", -1, &st,
			       NULL) != SQLITE_OK)
		return fail(s, d, "fleet summary");
	bt_status rc = BT_OK;
	int step = SQLITE_DONE;
	while (rc == BT_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (name)
			rc = fn(ctx, name);
	}
	if (rc == BT_OK && step != SQLITE_DONE)
		rc = fail(s, d, "fleet summary");
	sqlite3_finalize(st);
	return rc;
}

/* The units of one block, as read. */
struct block_in {
	char *workload, *params, *model, *node;
	struct bt_fleet_unit_in *u;
	size_t n, cap;
};

static void block_in_free(struct block_in *b)
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

/* A new block (its names copied) after the block b held is handed on. */
static bt_status block_start(struct block_in *b, const char *wl, const char *params, const char *model,
			     const char *node)
{
	block_in_free(b);
	b->workload = bt_fleet_dup(wl);
	b->params = bt_fleet_dup(params);
	b->model = bt_fleet_dup(model);
	b->node = bt_fleet_dup(node);
	return b->workload && b->params && b->model && b->node ? BT_OK : BT_ERR_NOMEM;
}

/* One more run value of the unit (machine, firmware, microcode): the last
 * unit of b when it is that one (rows come in unit order), else a new one. */
static bt_status unit_add(struct block_in *b, const char *mach, const char *fw, const char *uc, double val,
			  int simulated)
{
	struct bt_fleet_unit_in *u = b->n ? &b->u[b->n - 1] : NULL;
	if (!u || strcmp(u->machine, mach) || strcmp(u->firmware, fw) || strcmp(u->microcode, uc)) {
		struct bt_fleet_unit_in *g = bt_fleet_grow(b->u, &b->cap, b->n, sizeof(*b->u));
		if (!g)
			return BT_ERR_NOMEM;
		b->u = g;
		u = &b->u[b->n++];
		*u = (struct bt_fleet_unit_in){ bt_fleet_dup(mach), bt_fleet_dup(fw), bt_fleet_dup(uc), NULL, 0, 0, 0 };
		if (!u->machine || !u->firmware || !u->microcode)
			return BT_ERR_NOMEM;
	}
	double *v = bt_fleet_grow(u->vals, &u->cap, u->n, sizeof(double));
	if (!v)
		return BT_ERR_NOMEM;
	u->vals = v;
	u->vals[u->n++] = val;
	u->simulated += simulated != 0;
	return BT_OK;
}

/* Every tree node value, in block and unit order; the statistics in C. */
static bt_status sq_blocks(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o, bt_fleet_block_fn fn,
			   void *ctx, struct bt_diag *d)
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
	if (sqlite3_prepare_v2(db_of(s), sql, -1, &st, NULL) != SQLITE_OK)
		return fail(s, d, "fleet summary");
	if (o->node)
		sqlite3_bind_text(st, 1, o->node, -1, SQLITE_STATIC);
	struct block_in b = { 0 };
	bt_status rc = BT_OK;
	int step = SQLITE_DONE;
	while (rc == BT_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *wl = (const char *)sqlite3_column_text(st, 0);
		const char *model = (const char *)sqlite3_column_text(st, 1);
		const char *node = (const char *)sqlite3_column_text(st, 2);
		const char *mach = (const char *)sqlite3_column_text(st, 3);
		const char *fw = (const char *)sqlite3_column_text(st, 4);
		const char *uc = (const char *)sqlite3_column_text(st, 5);
		const char *params = (const char *)sqlite3_column_text(st, 7);
		if (!wl || !model || !node || !mach || !fw || !uc || !params)
			continue;
		if (!b.workload || strcmp(b.workload, wl) || strcmp(b.params, params) ||
		    strcmp(b.model, model) || strcmp(b.node, node)) {
			rc = bt_fleet_block_of_units(o, b.workload, b.params, b.model, b.node, b.u, b.n, fn, ctx);
			if (rc == BT_OK)
				rc = block_start(&b, wl, params, model, node);
		}
		if (rc == BT_OK)
			rc = unit_add(&b, mach, fw, uc, sqlite3_column_double(st, 6), sqlite3_column_int(st, 8));
	}
	if (rc == BT_OK && step != SQLITE_DONE)
		rc = fail(s, d, "fleet summary");
	if (rc == BT_OK)
		rc = bt_fleet_block_of_units(o, b.workload, b.params, b.model, b.node, b.u, b.n, fn, ctx);
	block_in_free(&b);
	sqlite3_finalize(st);
	return rc;
}

struct pnode_in {
	struct bt_fleet_path_node p;
	double *vals;
	size_t n, cap;
};

static void pnodes_free(struct pnode_in *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].p.node);
		free(p[i].p.parent);
		free(p[i].vals);
	}
}

static bt_status path_flush(bt_fleet_path_fn fn, void *ctx, const char *wl, const char *params,
			    const char *model, struct pnode_in *p, size_t n)
{
	struct bt_fleet_path_node *out = malloc((n ? n : 1) * sizeof(*out));
	bt_status rc = BT_ERR_NOMEM;
	if (out) {
		for (size_t i = 0; i < n; i++) {
			p[i].p.median = bt_median_inplace(p[i].vals, p[i].n);
			out[i] = p[i].p;
		}
		rc = fn(ctx, wl, params, model, out, n);
		free(out);
	}
	pnodes_free(p, n);
	return rc;
}

/* One more value of a node of the current (workload, params, model): the
 * last node of p when it is that one (rows come in node order). */
static bt_status pnode_add(struct pnode_in **p, size_t *n, size_t *cap, const char *node, const char *parent,
			   double value, int thresh_known, int flagged)
{
	if (!*n || strcmp((*p)[*n - 1].p.node, node)) {
		struct pnode_in *g = bt_fleet_grow(*p, cap, *n, sizeof(**p));
		if (!g)
			return BT_ERR_NOMEM;
		*p = g;
		g[*n] = (struct pnode_in){ { bt_fleet_dup(node), bt_fleet_dup(parent), NAN, 0, 0 }, NULL, 0, 0 };
		(*n)++;
		if (!g[*n - 1].p.node || !g[*n - 1].p.parent)
			return BT_ERR_NOMEM;
	}
	struct pnode_in *x = &(*p)[*n - 1];
	double *v = bt_fleet_grow(x->vals, &x->cap, x->n, sizeof(double));
	if (!v)
		return BT_ERR_NOMEM;
	x->vals = v;
	x->vals[x->n++] = value;
	x->p.known += thresh_known != 0;
	x->p.flagged += thresh_known && flagged;
	return BT_OK;
}

static bt_status sq_paths(struct bt_fleet_store *s, bt_fleet_path_fn fn, void *ctx, struct bt_diag *d)
{
	sqlite3_stmt *st;
	const char *sql =
		"SELECT w.name, IFNULL(w.params, ''), IFNULL(w.model, ''), n.node, IFNULL(n.parent, ''),"
		"       n.value, n.thresh"
		"  FROM nodes n JOIN workloads w ON w.workload_id = n.workload_id"
		" WHERE n.kind = 'tree' AND n.value IS NOT NULL"
		" ORDER BY w.name, IFNULL(w.params, ''), w.model, n.node";
	if (sqlite3_prepare_v2(db_of(s), sql, -1, &st, NULL) != SQLITE_OK)
		return fail(s, d, "fleet summary");
	char *wl = NULL, *params = NULL, *model = NULL;
	struct pnode_in *p = NULL;
	size_t n = 0, cap = 0;
	bt_status rc = BT_OK;
	int step = SQLITE_DONE;
	while (rc == BT_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *w = (const char *)sqlite3_column_text(st, 0);
		const char *pa = (const char *)sqlite3_column_text(st, 1);
		const char *mo = (const char *)sqlite3_column_text(st, 2);
		const char *node = (const char *)sqlite3_column_text(st, 3);
		const char *parent = (const char *)sqlite3_column_text(st, 4);
		if (!w || !pa || !mo || !node || !parent)
			continue;
		if (!wl || strcmp(wl, w) || strcmp(params, pa) || strcmp(model, mo)) {
			if (wl)
				rc = path_flush(fn, ctx, wl, params, model, p, n);
			n = 0;
			free(wl);
			free(params);
			free(model);
			wl = bt_fleet_dup(w);
			params = bt_fleet_dup(pa);
			model = bt_fleet_dup(mo);
			if (rc == BT_OK && (!wl || !params || !model))
				rc = BT_ERR_NOMEM;
		}
		if (rc == BT_OK)
			rc = pnode_add(&p, &n, &cap, node, parent, sqlite3_column_double(st, 5),
				       sqlite3_column_type(st, 6) != SQLITE_NULL, sqlite3_column_int(st, 6) != 0);
	}
	if (rc == BT_OK && step != SQLITE_DONE)
		rc = fail(s, d, "fleet summary");
	if (rc == BT_OK && wl)
		rc = path_flush(fn, ctx, wl, params, model, p, n);
	else
		pnodes_free(p, n);
	free(p);
	free(wl);
	free(params);
	free(model);
	sqlite3_finalize(st);
	return rc;
}

static void sq_close(struct bt_fleet_store *s)
{
	struct sqlite_store *q = (struct sqlite_store *)s;
	sqlite3_stmt *all[] = { q->machine_ins, q->machine_sel, q->fw_ins, q->fw_sel, q->run_ins, q->wl_ins,
				q->node_ins, q->event_ins, q->nn_ins, q->nn_sel, q->en_ins, q->en_sel,
				q->st_ins, q->st_sel };
	for (size_t i = 0; i < BT_ARRAY_SIZE(all); i++)
		sqlite3_finalize(all[i]);
	sqlite3_close(q->db);
	forget_states(q);
	free(q);
}

static const struct bt_fleet_engine sqlite_engine = {
	"SQLite", sq_begin_file, sq_end_file, sq_machine_id, sq_firmware_id, sq_insert_run, sq_insert_workloads,
	sq_dict_id, sq_insert_values, sq_finish, sq_query_one, sq_node_names, sq_blocks, sq_paths, sq_close,
};

bt_status bt_fleet_sqlite_open(const char *path, struct bt_fleet_store **ret, struct bt_diag *d)
{
	sqlite3 *db = NULL;
	*ret = NULL;
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		bt_diag_set(d, "cannot open the database %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
		sqlite3_close(db);
		return BT_ERR_IO;
	}
	/* A second importer of the same file waits for the first (whose
	 * import is one transaction) instead of failing at once. */
	sqlite3_busy_timeout(db, 600000);
	sqlite3_stmt *st;
	int version = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			version = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	if (version < 0 || version > 4) {
		bt_diag_set(d, "%s: %s", path, version < 0 ? sqlite3_errmsg(db)
			    : "a database of another schema version (PRAGMA user_version is not 1 to 4)");
		sqlite3_close(db);
		return BT_ERR_IO;
	}
	char *err = NULL;
	/* Version 1 had no runs.secure_boot: add it (NULL for the runs
	 * already stored, which is what their files said); the schema below
	 * then sets version 2. */
	if (version == 1 &&
	    sqlite3_exec(db, "ALTER TABLE runs ADD COLUMN secure_boot INTEGER", NULL, NULL, &err) != SQLITE_OK) {
		bt_diag_set(d, "%s: upgrading schema 1 to 2: %s", path, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		sqlite3_close(db);
		return BT_ERR_IO;
	}
	/* Versions 1 and 2 had the tables nodes and events with every name
	 * in every row: moved into the compact tables of version 3 (the
	 * schema below makes them and the views of the old names), in one
	 * transaction with the schema. Event min, max, raw_median and
	 * overhead are dropped: they stay in the results files. */
	/* Version 3 kept node_values.state as text: moved into node_values
	 * with state ids (the view nodes, which names the old table, made
	 * again by the schema). */
	int upgrade = version == 1 || version == 2, upgrade3 = version == 3;
	if ((upgrade && sqlite3_exec(db, "BEGIN; ALTER TABLE nodes RENAME TO nodes_v2;"
				     " ALTER TABLE events RENAME TO events_v2;", NULL, NULL, &err) != SQLITE_OK) ||
	    (upgrade3 && sqlite3_exec(db, "BEGIN; DROP VIEW IF EXISTS nodes;"
				      " ALTER TABLE node_values RENAME TO node_values_v3;", NULL, NULL, &err) != SQLITE_OK)) {
		bt_diag_set(d, "%s: upgrading schema %d to 4: %s", path, version, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		sqlite3_close(db);
		return BT_ERR_IO;
	}
	/* the schema: the pragma, the tables both engines share, this engine's */
	char *shared = NULL, *schema = NULL;
	bt_status st_schema = bt_fleet_schema_shared(&BT_FLEET_SQLITE, &shared);
	if (st_schema == BT_OK) {
		size_t len = strlen(SQ_SCHEMA_HEAD) + strlen(shared) + strlen(SQ_SCHEMA) + 1;
		if ((schema = malloc(len)))
			snprintf(schema, len, "%s%s%s", SQ_SCHEMA_HEAD, shared, SQ_SCHEMA);
		else
			st_schema = BT_ERR_NOMEM;
		free(shared);
	}
	if (st_schema != BT_OK) {
		if (upgrade || upgrade3)
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(db);
		bt_diag_set(d, "%s: schema: %s", path, bt_status_str(st_schema));
		return st_schema;
	}
	int schema_rc = sqlite3_exec(db, schema, NULL, NULL, &err);
	free(schema);
	if (schema_rc != SQLITE_OK ||
	    (upgrade && sqlite3_exec(db,
		"INSERT OR IGNORE INTO node_names (node, kind, level, parent)"
		"  SELECT node, IFNULL(kind, ''), IFNULL(level, -1), IFNULL(parent, '') FROM nodes_v2;"
		"INSERT OR IGNORE INTO node_states (state) SELECT state FROM nodes_v2 WHERE state IS NOT NULL;"
		"INSERT INTO node_values (workload_id, name_id, state_id, value, thresh)"
		"  SELECT o.workload_id, n.name_id, s.state_id, o.value, o.thresh FROM nodes_v2 o"
		"  JOIN node_names n ON n.node = o.node AND n.kind = IFNULL(o.kind, '')"
		"   AND n.level = IFNULL(o.level, -1) AND n.parent = IFNULL(o.parent, '')"
		"  LEFT JOIN node_states s ON s.state = o.state;"
		"INSERT OR IGNORE INTO event_names (event) SELECT event FROM events_v2;"
		"INSERT INTO event_values (workload_id, event_id, median, counter_group)"
		"  SELECT o.workload_id, e.event_id, o.median, o.counter_group FROM events_v2 o"
		"  JOIN event_names e ON e.event = o.event;"
		"DROP TABLE nodes_v2; DROP TABLE events_v2; COMMIT;", NULL, NULL, &err) != SQLITE_OK) ||
	    (upgrade3 && sqlite3_exec(db,
		"INSERT OR IGNORE INTO node_states (state) SELECT state FROM node_values_v3 WHERE state IS NOT NULL;"
		"INSERT INTO node_values (workload_id, name_id, state_id, value, thresh)"
		"  SELECT o.workload_id, o.name_id, s.state_id, o.value, o.thresh FROM node_values_v3 o"
		"  LEFT JOIN node_states s ON s.state = o.state;"
		"DROP TABLE node_values_v3; COMMIT;", NULL, NULL, &err) != SQLITE_OK)) {
		if (upgrade || upgrade3)
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		bt_diag_set(d, "%s: schema: %s", path, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		sqlite3_close(db);
		return BT_ERR_IO;
	}
	struct sqlite_store *q = calloc(1, sizeof(*q));
	if (!q) {
		sqlite3_close(db);
		bt_diag_set(d, "out of memory");
		return BT_ERR_NOMEM;
	}
	q->s.e = &sqlite_engine;
	snprintf(q->s.where, sizeof(q->s.where), "%s", path);
	q->db = db;
	struct { sqlite3_stmt **st; const char *sql; } prep[] = {
		{ &q->machine_ins, "INSERT OR IGNORE INTO machines (machine_key, identity, manufacturer, product,"
				   " serial, uuid, board_manufacturer, board_product, board_serial, cpu_vendor,"
				   " cpu_brand, cpu_signature) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)" },
		{ &q->machine_sel, "SELECT machine_id FROM machines WHERE machine_key = ?" },
		{ &q->fw_ins, "INSERT OR IGNORE INTO firmware (firmware_key, vendor, version, release_date, source)"
			      " VALUES (?,?,?,?,?)" },
		{ &q->fw_sel, "SELECT firmware_id FROM firmware WHERE firmware_key = ?" },
		{ &q->run_ins, "INSERT OR IGNORE INTO runs (run_id, run_id_source, machine_id, firmware_id, microcode,"
			       " sequence, firmware_clock, baretop_version, simulated, exit_status,"
			       " memory_total_mib, fpdt_reset_end_ns, source_file, secure_boot)"
			       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)" },
		{ &q->wl_ins, "INSERT INTO workloads (run_id, position, name, params, cpu, state, counted,"
			      " simulated, model) VALUES (?,?,?,?,?,?,?,?,?)" },
		{ &q->st_ins, "INSERT OR IGNORE INTO node_states (state) VALUES (?)" },
		{ &q->st_sel, "SELECT state_id FROM node_states WHERE state = ?" },
		{ &q->node_ins, "INSERT INTO node_values (workload_id, name_id, state_id, value, thresh)"
				" VALUES (?,?,?,?,?)" },
		{ &q->event_ins, "INSERT INTO event_values (workload_id, event_id, median, counter_group)"
				 " VALUES (?,?,?,?)" },
		{ &q->nn_ins, "INSERT OR IGNORE INTO node_names (node, kind, level, parent) VALUES (?,?,?,?)" },
		{ &q->nn_sel, "SELECT name_id FROM node_names WHERE node = ? AND kind = ? AND level = ? AND parent = ?" },
		{ &q->en_ins, "INSERT OR IGNORE INTO event_names (event) VALUES (?)" },
		{ &q->en_sel, "SELECT event_id FROM event_names WHERE event = ?" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(prep); i++)
		if (sqlite3_prepare_v2(db, prep[i].sql, -1, prep[i].st, NULL) != SQLITE_OK) {
			bt_diag_set(d, "%s: %s", path, sqlite3_errmsg(db));
			sq_close(&q->s);
			return BT_ERR_IO;
		}
	*ret = &q->s;
	return BT_OK;
}

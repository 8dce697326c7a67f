/* SPDX-License-Identifier: MIT */
/*
 * The fleet store's PostgreSQL engine (store.h), through libpq: the
 * database is a server, named by a connection URI (postgresql://... or
 * postgres://..., libpq's own syntax: PostgreSQL manual 34.1.1), and many
 * importers may write at once. The tables and their meaning are those of
 * docs/fleet-schema.md, with the types mapped (the mapping is in the doc).
 *
 * Several importers at once: each results file is one transaction at READ
 * COMMITTED. Keys are unique constraints and every insert of a keyed row is
 * INSERT ... ON CONFLICT DO NOTHING: when two importers store the same run
 * at the same moment, the second one's insert waits for the first
 * transaction and, when that commits, inserts nothing (manual, INSERT, "ON
 * CONFLICT Clause"; 13.2.1: the conflicting row is seen once committed),
 * so the run is stored once and neither importer gets an error. Rows are
 * locked in one order in every file (machines, firmware, runs:
 * import.c), so the waits cannot form a cycle; a serialization
 * failure (40001) or deadlock victim (40P01) the server might still report
 * is retried by the import (BT_ERR_ABORTED).
 *
 * The summary is computed by the server (pg-summary.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "tools/baretop-host/fleet/pg.h"
#include "base/array.h"
#include "tools/baretop-host/fleet/sql.h"
#include "tools/baretop-host/fleet/summary.h"

/* Keep in step with docs/fleet-schema.md ("PostgreSQL"). The schema
 * version is the row of baretop_fleet_schema (SQLite's user_version); the
 * tables both engines share come between PG_SCHEMA_HEAD and PG_SCHEMA,
 * from sql.c. */
static const char PG_SCHEMA_HEAD[] =
	"CREATE TABLE IF NOT EXISTS baretop_fleet_schema (version integer NOT NULL);\n";
static const char PG_SCHEMA[] =
	/* one row per workload: its node values and event medians as arrays
	 * in the file's order (a row per value costs PostgreSQL some 28 bytes
	 * of tuple header and item pointer, plus its index entry: 5-6 times
	 * the value); the views nodes and events unnest them */
	"CREATE TABLE IF NOT EXISTS node_values (\n"
	"  workload_id bigint PRIMARY KEY REFERENCES workloads(workload_id),\n"
	"  name_ids integer[] NOT NULL, states text[] NOT NULL, vals double precision[] NOT NULL,\n"
	"  thresh smallint[] NOT NULL);\n"
	"CREATE TABLE IF NOT EXISTS event_values (\n"
	"  workload_id bigint PRIMARY KEY REFERENCES workloads(workload_id),\n"
	"  event_ids integer[] NOT NULL, medians double precision[] NOT NULL, counter_groups smallint[] NOT NULL);\n"
	"CREATE OR REPLACE VIEW nodes AS\n"
	"  SELECT v.workload_id, n.node, NULLIF(n.kind, '') AS kind, n.level, NULLIF(n.parent, '') AS parent,\n"
	"         u.state, u.value, u.thresh::integer AS thresh\n"
	"    FROM node_values v CROSS JOIN LATERAL unnest(v.name_ids, v.states, v.vals, v.thresh)\n"
	"         AS u(name_id, state, value, thresh)\n"
	"    JOIN node_names n ON n.name_id = u.name_id;\n"
	"CREATE OR REPLACE VIEW events AS\n"
	"  SELECT v.workload_id, e.event, u.median, u.counter_group::integer AS counter_group\n"
	"    FROM event_values v CROSS JOIN LATERAL unnest(v.event_ids, v.medians, v.counter_groups)\n"
	"         AS u(event_id, median, counter_group)\n"
	"    JOIN event_names e ON e.event_id = u.event_id;\n"
	"INSERT INTO baretop_fleet_schema SELECT 3 WHERE NOT EXISTS (SELECT 1 FROM baretop_fleet_schema);\n";

/* The statements of the import, prepared once per connection. */
static const struct { const char *name, *sql; int n; } PREPARED[] = {
	{ "m_ins", "INSERT INTO machines (machine_key, identity, manufacturer, product, serial, uuid,"
		   " board_manufacturer, board_product, board_serial, cpu_vendor, cpu_brand, cpu_signature)"
		   " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)"
		   " ON CONFLICT (machine_key) DO NOTHING RETURNING machine_id", 12 },
	{ "m_sel", "SELECT machine_id FROM machines WHERE machine_key = $1", 1 },
	{ "f_ins", "INSERT INTO firmware (firmware_key, vendor, version, release_date, source)"
		   " VALUES ($1,$2,$3,$4,$5) ON CONFLICT (firmware_key) DO NOTHING RETURNING firmware_id", 5 },
	{ "f_sel", "SELECT firmware_id FROM firmware WHERE firmware_key = $1", 1 },
	{ "r_ins", "INSERT INTO runs (run_id, run_id_source, machine_id, firmware_id, microcode, sequence,"
		   " firmware_clock, baretop_version, simulated, exit_status, memory_total_mib,"
		   " fpdt_reset_end_ns, source_file, secure_boot)"
		   " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)"
		   " ON CONFLICT (run_id) DO NOTHING", 14 },
	/* one statement per file for its workloads, one for its nodes, one
	 * for its events: arrays unnested by the server, not a round trip
	 * per row */
	{ "w_ins", "INSERT INTO workloads (run_id, position, name, params, cpu, state, counted, simulated, model)"
		   " SELECT $1, t.* FROM unnest($2::integer[], $3::text[], $4::text[], $5::integer[], $6::text[],"
		   " $7::integer[], $8::integer[], $9::text[]) AS t RETURNING position, workload_id", 9 },
	{ "n_ins", "INSERT INTO node_values (workload_id, name_ids, states, vals, thresh)"
		   " SELECT w, array_agg(n ORDER BY o), array_agg(s ORDER BY o), array_agg(v ORDER BY o),"
		   " array_agg(t ORDER BY o)"
		   " FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::double precision[], $5::smallint[])"
		   " WITH ORDINALITY AS x(w, n, s, v, t, o) GROUP BY w", 5 },
	{ "e_ins", "INSERT INTO event_values (workload_id, event_ids, medians, counter_groups)"
		   " SELECT w, array_agg(e ORDER BY o), array_agg(m ORDER BY o), array_agg(g ORDER BY o)"
		   " FROM unnest($1::bigint[], $2::integer[], $3::double precision[], $4::smallint[])"
		   " WITH ORDINALITY AS x(w, e, m, g, o) GROUP BY w", 4 },
	{ "nn_ins", "INSERT INTO node_names (node, kind, level, parent) VALUES ($1, $2, $3, $4)"
		    " ON CONFLICT (node, kind, level, parent) DO NOTHING RETURNING name_id", 4 },
	{ "nn_sel", "SELECT name_id FROM node_names WHERE node = $1 AND kind = $2 AND level = $3 AND parent = $4", 4 },
	{ "en_ins", "INSERT INTO event_names (event) VALUES ($1) ON CONFLICT (event) DO NOTHING RETURNING event_id", 1 },
	{ "en_sel", "SELECT event_id FROM event_names WHERE event = $1", 1 },
};

static bt_status exec_ok(struct bt_fleet_store *s, const char *sql, const char *what, struct bt_diag *d)
{
	PGresult *res = PQexec(conn(s), sql);
	ExecStatusType st = PQresultStatus(res);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		return bt_fleet_pg_failed(res, s, what, d);
	PQclear(res);
	return BT_OK;
}

static PGresult *run_prepared(struct bt_fleet_store *s, const char *name, int n, const char *const *vals)
{
	return PQexecPrepared(conn(s), name, n, vals, NULL, NULL, 0);
}

static bt_status pg_begin_file(struct bt_fleet_store *s, struct bt_diag *d)
{
	return exec_ok(s, "BEGIN", "BEGIN", d);
}

static bt_status pg_end_file(struct bt_fleet_store *s, int commit, struct bt_diag *d)
{
	return exec_ok(s, commit ? "COMMIT" : "ROLLBACK", commit ? "COMMIT" : "ROLLBACK", d);
}

/* INSERT ... ON CONFLICT DO NOTHING RETURNING id; when the key is there
 * (committed by this or another importer), SELECT it: a new statement at
 * READ COMMITTED sees what the other importer committed meanwhile. */
static bt_status key_id(struct bt_fleet_store *s, const char *ins, const char *sel, const char *const *vals, int n,
		  int n_key, int64_t *id, struct bt_diag *d)
{
	PGresult *res = run_prepared(s, ins, n, vals);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return bt_fleet_pg_failed(res, s, ins, d);
	if (PQntuples(res) != 1) {
		PQclear(res);
		res = run_prepared(s, sel, n_key, vals);
		if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
			return bt_fleet_pg_failed(res, s, sel, d);
	}
	*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return BT_OK;
}

static bt_status pg_machine_id(struct bt_fleet_store *s, const char *const vals[12], int64_t *id, struct bt_diag *d)
{
	return key_id(s, "m_ins", "m_sel", vals, 12, 1, id, d);
}

static bt_status pg_firmware_id(struct bt_fleet_store *s, const char *const vals[5], int64_t *id, struct bt_diag *d)
{
	return key_id(s, "f_ins", "f_sel", vals, 5, 1, id, d);
}

/* Text of numbers for parameters: NULL for absent. */
struct numtext {
	char b[8][40];
	int used;
};

static const char *num_ll(struct numtext *t, long long v)
{
	char *b = t->b[t->used++ & 7];
	snprintf(b, sizeof(t->b[0]), "%lld", v);
	return b;
}

static const char *num_d(struct numtext *t, double v)
{
	if (isnan(v))
		return NULL;
	char *b = t->b[t->used++ & 7];
	snprintf(b, sizeof(t->b[0]), "%.17g", v);
	return b;
}

static bt_status pg_insert_run(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t machine, int64_t fw,
			 const char *file, int *inserted, struct bt_diag *d)
{
	struct numtext t = { .used = 0 };
	const char *v[14] = { r->run_id, r->run_id_source, num_ll(&t, machine), num_ll(&t, fw), r->microcode,
			      num_ll(&t, r->sequence), r->firmware_clock, r->baretop_version,
			      num_ll(&t, r->simulated), r->exit_status >= 0 ? num_ll(&t, r->exit_status) : NULL,
			      num_d(&t, r->memory_total_mib), num_d(&t, r->fpdt_reset_end_ns), file,
			      r->secure_boot >= 0 ? num_ll(&t, r->secure_boot) : NULL };
	PGresult *res = run_prepared(s, "r_ins", 14, v);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		return bt_fleet_pg_failed(res, s, "runs", d);
	*inserted = !strcmp(PQcmdTuples(res), "1");
	PQclear(res);
	return BT_OK;
}

/* A PostgreSQL array literal being built: {"a","b",NULL} (manual 8.15.6:
 * elements double-quoted, backslash before " and \). */
struct arr {
	char *p;
	size_t n, cap;
	int items;
	int oom;                /* an append failed: the literal is incomplete */
};

static void arr_raw(struct arr *a, const char *s, size_t len)
{
	if (a->oom)
		return;
	if (a->n + len + 2 > a->cap) {
		size_t cap = (a->n + len + 2) * 2;
		char *p = realloc(a->p, cap);
		if (!p) {
			a->oom = 1;
			return;
		}
		a->p = p;
		a->cap = cap;
	}
	memcpy(a->p + a->n, s, len);
	a->n += len;
	a->p[a->n] = 0;
}

static void arr_sep(struct arr *a)
{
	arr_raw(a, a->items++ ? "," : "{", 1);
}

static void arr_text(struct arr *a, const char *s)
{
	arr_sep(a);
	if (!s) {
		arr_raw(a, "NULL", 4);
		return;
	}
	arr_raw(a, "\"", 1);
	for (const char *c = s; *c; c++) {
		if (*c == '"' || *c == '\\')
			arr_raw(a, "\\", 1);
		arr_raw(a, c, 1);
	}
	arr_raw(a, "\"", 1);
}

static void arr_ll(struct arr *a, long long v, int is_null)
{
	char b[32];
	arr_sep(a);
	if (is_null)
		arr_raw(a, "NULL", 4);
	else
		arr_raw(a, b, (size_t)snprintf(b, sizeof(b), "%lld", v));
}

static void arr_d(struct arr *a, double v)
{
	char b[40];
	arr_sep(a);
	if (isnan(v))
		arr_raw(a, "NULL", 4);
	else
		arr_raw(a, b, (size_t)snprintf(b, sizeof(b), "%.17g", v));
}

/* The literal, or NULL when out of memory. */
static const char *arr_end(struct arr *a)
{
	if (!a->items)
		arr_raw(a, "{", 1);
	arr_raw(a, "}", 1);
	return a->oom ? NULL : a->p;
}

/* v[i] = the literal of a[i]; BT_ERR_NOMEM when one is incomplete. */
static bt_status arrs_end(struct arr *a, int n, const char **v)
{
	bt_status rc = BT_OK;
	for (int i = 0; i < n; i++)
		if (!(v[i] = arr_end(&a[i])))
			rc = BT_ERR_NOMEM;
	return rc;
}

static void arrs_free(struct arr *a, int n)
{
	for (int i = 0; i < n; i++)
		free(a[i].p);
}

static bt_status pg_insert_workloads(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t *ids,
			       struct bt_diag *d)
{
	if (!r->n_workloads)
		return BT_OK;
	struct arr a[8] = { { 0 } };
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		arr_ll(&a[0], (long long)k, 0);
		arr_text(&a[1], w->name);
		arr_text(&a[2], w->params);
		arr_ll(&a[3], w->cpu, 0);
		arr_text(&a[4], w->state);
		arr_ll(&a[5], w->counted, 0);
		arr_ll(&a[6], w->simulated, 0);
		arr_text(&a[7], w->model);
	}
	const char *v[9] = { r->run_id };
	if (arrs_end(a, 8, v + 1) != BT_OK) {
		arrs_free(a, 8);
		return BT_ERR_NOMEM;
	}
	PGresult *res = run_prepared(s, "w_ins", 9, v);
	arrs_free(a, 8);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || (size_t)PQntuples(res) != r->n_workloads)
		return bt_fleet_pg_failed(res, s, "workloads", d);
	for (int i = 0; i < PQntuples(res); i++) {
		long pos = strtol(PQgetvalue(res, i, 0), NULL, 10);
		if (pos >= 0 && (size_t)pos < r->n_workloads)
			ids[pos] = strtoll(PQgetvalue(res, i, 1), NULL, 10);
	}
	PQclear(res);
	return BT_OK;
}

static bt_status pg_dict_id(struct bt_fleet_store *s, int dict, const char *const key[4], int64_t *id,
		      struct bt_diag *d)
{
	if (dict == BT_FLEET_DICT_NODE)
		return key_id(s, "nn_ins", "nn_sel", key, 4, 4, id, d);
	return key_id(s, "en_ins", "en_sel", key, 1, 1, id, d);
}

static bt_status pg_insert_values(struct bt_fleet_store *s, const struct bt_fleet_run *r, const int64_t *ids,
			    char *const *keep, int64_t *const *name, struct bt_diag *d)
{
	struct arr n[5] = { { 0 } }, e[4] = { { 0 } };
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		for (size_t i = 0; i < w->n_nodes; i++) {
			const struct bt_fleet_node *x = &w->nodes[i];
			if (!keep[k][i])
				continue;
			arr_ll(&n[0], ids[k], 0);
			arr_ll(&n[1], name[k][i], 0);
			arr_text(&n[2], x->state);
			arr_d(&n[3], x->has_value ? x->value : NAN);
			arr_ll(&n[4], x->thresh, x->thresh < 0);
		}
		for (size_t i = 0; i < w->n_events; i++) {
			const struct bt_fleet_event *x = &w->events[i];
			if (!keep[k][w->n_nodes + i])
				continue;
			arr_ll(&e[0], ids[k], 0);
			arr_ll(&e[1], name[k][w->n_nodes + i], 0);
			arr_d(&e[2], x->median);
			arr_ll(&e[3], x->group, 0);
		}
	}
	bt_status rc = BT_OK;
	const char *v[5];
	if (n[0].items && (rc = arrs_end(n, 5, v)) == BT_OK) {
		PGresult *res = run_prepared(s, "n_ins", 5, v);
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
			rc = bt_fleet_pg_failed(res, s, "node_values", d);
		else
			PQclear(res);
	}
	if (rc == BT_OK && e[0].items && (rc = arrs_end(e, 4, v)) == BT_OK) {
		PGresult *res = run_prepared(s, "e_ins", 4, v);
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
			rc = bt_fleet_pg_failed(res, s, "event_values", d);
		else
			PQclear(res);
	}
	arrs_free(n, 5);
	arrs_free(e, 4);
	return rc;
}

static bt_status pg_finish(struct bt_fleet_store *s, struct bt_diag *d)
{
	(void)s;
	(void)d;
	return BT_OK;  /* every file was committed on its own */
}

static bt_status pg_query_one(struct bt_fleet_store *s, const char *sql, const char *param, long long *n,
			      char *text, size_t len, struct bt_diag *d)
{
	PGresult *res = PQexecParams(conn(s), sql, param ? 1 : 0, NULL, param ? &param : NULL, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return bt_fleet_pg_failed(res, s, "query", d);
	*n = -1;
	if (text && len)
		text[0] = 0;
	if (PQntuples(res) >= 1 && !PQgetisnull(res, 0, 0)) {
		*n = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		if (text && len)
			snprintf(text, len, "%s", PQgetvalue(res, 0, 0));
	}
	PQclear(res);
	return BT_OK;
}

static bt_status pg_node_names(struct bt_fleet_store *s, bt_status (*fn)(void *ctx, const char *name), void *ctx,
			       struct bt_diag *d)
{
	PGresult *res = PQexec(conn(s), "SELECT DISTINCT node FROM nodes WHERE kind = 'tree'");
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return bt_fleet_pg_failed(res, s, "fleet summary", d);
	bt_status rc = BT_OK;
	for (int i = 0; i < PQntuples(res) && rc == BT_OK; i++)
		rc = fn(ctx, PQgetvalue(res, i, 0));
	PQclear(res);
	return rc;
}

static void pg_close(struct bt_fleet_store *s)
{
	PQfinish(conn(s));
	free(s);
}

static const struct bt_fleet_engine pg_engine = {
	"PostgreSQL", pg_begin_file, pg_end_file, pg_machine_id, pg_firmware_id, pg_insert_run,
	pg_insert_workloads, pg_dict_id, pg_insert_values, pg_finish, pg_query_one, pg_node_names, bt_fleet_pg_blocks, bt_fleet_pg_paths, pg_close,
};

/* The URI for messages: the password (postgresql://user:PASSWORD@host)
 * replaced by "***". */
static void uri_for_messages(char *out, size_t len, const char *uri)
{
	const char *scheme_end = strstr(uri, "://");
	const char *at = scheme_end ? strchr(scheme_end + 3, '@') : NULL;
	const char *colon = at ? memchr(scheme_end + 3, ':', (size_t)(at - scheme_end - 3)) : NULL;
	if (colon)
		snprintf(out, len, "%.*s:***%s", (int)(colon - uri), uri, at);
	else
		snprintf(out, len, "%s", uri);
}

bt_status bt_fleet_pg_open(const char *uri, struct bt_fleet_store **ret, struct bt_diag *d)
{
	*ret = NULL;
	struct pg_store *q = calloc(1, sizeof(*q));
	if (!q) {
		bt_diag_set(d, "out of memory");
		return BT_ERR_NOMEM;
	}
	q->s.e = &pg_engine;
	uri_for_messages(q->s.where, sizeof(q->s.where), uri);
	q->c = PQconnectdb(uri);
	if (PQstatus(q->c) != CONNECTION_OK) {
		const char *msg = PQerrorMessage(q->c);
		size_t len = strlen(msg);
		while (len && msg[len - 1] == '\n')
			len--;
		bt_diag_set(d, "cannot connect to the PostgreSQL server %s: %.*s", q->s.where, (int)len, msg);
		pg_close(&q->s);
		return BT_ERR_IO;
	}
	struct bt_diag e = { "" };
	/* The schema once, by one importer at a time: CREATE TABLE IF NOT
	 * EXISTS run by two sessions at once can fail on the catalog's unique
	 * index; a transaction-level advisory lock (manual 9.27.10) orders them. */
	char *shared = NULL;
	bt_status rc = exec_ok(&q->s, "SET client_min_messages = warning", "SET", &e);
	if (rc == BT_OK)
		rc = exec_ok(&q->s, "BEGIN", "BEGIN", &e);
	if (rc == BT_OK)
		rc = exec_ok(&q->s, "SELECT pg_advisory_xact_lock(7262657474)", "schema lock", &e);
	if (rc == BT_OK && (rc = bt_fleet_schema_shared(&BT_FLEET_POSTGRES, &shared)) != BT_OK)
		bt_diag_set(&e, "schema: %s", bt_status_str(rc));
	if (rc == BT_OK)
		rc = exec_ok(&q->s, PG_SCHEMA_HEAD, "schema", &e);
	if (rc == BT_OK)
		rc = exec_ok(&q->s, shared, "schema", &e);
	free(shared);
	if (rc == BT_OK)
		rc = exec_ok(&q->s, PG_SCHEMA, "schema", &e);
	if (rc == BT_OK)
		rc = exec_ok(&q->s, "COMMIT", "COMMIT", &e);
	if (rc != BT_OK) {
		bt_diag_set(d, "%s: %s", q->s.where, e.text);
		pg_close(&q->s);
		return rc;
	}
	PGresult *res = PQexec(q->c, "SELECT version FROM baretop_fleet_schema");
	int version = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 ? atoi(PQgetvalue(res, 0, 0)) : -1;
	PQclear(res);
	if (version != 3) {
		bt_diag_set(d, "%s: a database of another schema version (baretop_fleet_schema.version %d, not 3)",
			    q->s.where, version);
		pg_close(&q->s);
		return BT_ERR_IO;
	}
	for (size_t i = 0; i < BT_ARRAY_SIZE(PREPARED); i++) {
		res = PQprepare(q->c, PREPARED[i].name, PREPARED[i].sql, PREPARED[i].n, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			bt_diag_set(d, "%s: preparing %s: %s", q->s.where, PREPARED[i].name, PQresultErrorMessage(res));
			PQclear(res);
			pg_close(&q->s);
			return BT_ERR_IO;
		}
		PQclear(res);
	}
	*ret = &q->s;
	return BT_OK;
}

/* SPDX-License-Identifier: MIT */
/* The fleet database: schema and import. See fleet-db.h, docs/fleet-schema.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/baretop-host/fleet-db.h"

/* Keep in step with docs/fleet-schema.md. user_version says which schema a
 * database file has; a file with another version is refused. */
const char BT_FLEET_SCHEMA[] =
	"PRAGMA foreign_keys = ON;\n"
	"CREATE TABLE IF NOT EXISTS machines (\n"
	"  machine_id INTEGER PRIMARY KEY,\n"
	"  machine_key TEXT NOT NULL UNIQUE,   -- uuid:..., serial:..., board:..., nosmbios:<hash>\n"
	"  identity TEXT NOT NULL,             -- SMBIOS system UUID | SMBIOS system serial | SMBIOS board serial | no SMBIOS identity\n"
	"  manufacturer TEXT, product TEXT, serial TEXT, uuid TEXT,\n"
	"  board_manufacturer TEXT, board_product TEXT, board_serial TEXT,\n"
	"  cpu_vendor TEXT, cpu_brand TEXT, cpu_signature TEXT\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS firmware (\n"
	"  firmware_id INTEGER PRIMARY KEY,\n"
	"  firmware_key TEXT NOT NULL UNIQUE,  -- vendor|version|release_date\n"
	"  vendor TEXT, version TEXT NOT NULL, release_date TEXT,\n"
	"  source TEXT NOT NULL                -- SMBIOS type 0 | UEFI system table | unknown\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS runs (\n"
	"  run_id TEXT PRIMARY KEY,            -- the file's run_id, or content:<FNV-1a 64 of its bytes>\n"
	"  run_id_source TEXT NOT NULL,        -- results file | content hash\n"
	"  machine_id INTEGER NOT NULL REFERENCES machines(machine_id),\n"
	"  firmware_id INTEGER NOT NULL REFERENCES firmware(firmware_id),\n"
	"  microcode TEXT,                     -- cpu.microcode, NULL when not read\n"
	"  sequence INTEGER, firmware_clock TEXT, baretop_version TEXT,\n"
	"  simulated INTEGER NOT NULL,         -- 1: SIMULATED (the document's \"simulated\")\n"
	"  exit_status INTEGER, memory_total_mib REAL, fpdt_reset_end_ns REAL,\n"
	"  secure_boot INTEGER,                -- machine.secure_boot.enforced: 1, 0; NULL not recorded\n"
	"  source_file TEXT NOT NULL,          -- the path it was first imported from\n"
	"  imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS workloads (\n"
	"  workload_id INTEGER PRIMARY KEY,\n"
	"  run_id TEXT NOT NULL REFERENCES runs(run_id),\n"
	"  position INTEGER NOT NULL,          -- 0-based, in the file's order\n"
	"  name TEXT NOT NULL, params TEXT, cpu INTEGER, state TEXT,\n"
	"  counted INTEGER NOT NULL, simulated INTEGER NOT NULL, model TEXT,\n"
	"  UNIQUE (run_id, position)\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS events (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(workload_id),\n"
	"  event TEXT NOT NULL,                -- canonical spelling\n"
	"  median REAL NOT NULL, min REAL, max REAL, raw_median REAL, overhead REAL,\n"
	"  counter_group INTEGER,              -- -1: counted in every group\n"
	"  PRIMARY KEY (workload_id, event)\n"
	");\n"
	"CREATE TABLE IF NOT EXISTS nodes (\n"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(workload_id),\n"
	"  node TEXT NOT NULL,\n"
	"  kind TEXT,                          -- tree | info | bottleneck\n"
	"  level INTEGER, parent TEXT, state TEXT,\n"
	"  value REAL,                         -- NULL: not computed in this run\n"
	"  thresh INTEGER,                     -- 1 flagged, 0 not, NULL unknown\n"
	"  PRIMARY KEY (workload_id, node)\n"
	");\n"
	"CREATE INDEX IF NOT EXISTS runs_machine ON runs(machine_id);\n"
	"CREATE INDEX IF NOT EXISTS workloads_name ON workloads(name, model);\n"
	"PRAGMA user_version = 2;\n";

sqlite3 *bt_fleet_db_open(const char *path, struct bt_diag *d)
{
	sqlite3 *db = NULL;
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		bt_diag_set(d, "cannot open the database %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_stmt *st;
	int version = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			version = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	if (version < 0 || version > 2) {
		bt_diag_set(d, "%s: %s", path, version < 0 ? sqlite3_errmsg(db)
			    : "a database of another schema version (PRAGMA user_version is not 1 or 2)");
		sqlite3_close(db);
		return NULL;
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
		return NULL;
	}
	if (sqlite3_exec(db, BT_FLEET_SCHEMA, NULL, NULL, &err) != SQLITE_OK) {
		bt_diag_set(d, "%s: schema: %s", path, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		sqlite3_close(db);
		return NULL;
	}
	return db;
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

/* Runs one statement; returns the result of its first step. */
static int exec1(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	(void)db;
	return rc;
}

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(db, sql, -1, st, NULL);
}

/* INSERT OR IGNORE the row keyed by key, then its id. */
static sqlite3_int64 row_id(sqlite3 *db, const char *select_sql, const char *key)
{
	sqlite3_stmt *st;
	sqlite3_int64 id = -1;
	if (prepare(db, select_sql, &st) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

static int store(sqlite3 *db, const struct bt_fleet_run *r, const char *file)
{
	sqlite3_stmt *st;
	if (prepare(db, "INSERT OR IGNORE INTO machines (machine_key, identity, manufacturer, product, serial,"
			" uuid, board_manufacturer, board_product, board_serial, cpu_vendor, cpu_brand,"
			" cpu_signature) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", &st) != SQLITE_OK)
		return -1;
	const char *m[] = { r->machine_key, r->identity, r->sys_manufacturer, r->sys_product, r->sys_serial,
			    r->sys_uuid, r->board_manufacturer, r->board_product, r->board_serial,
			    r->cpu_vendor, r->cpu_brand, r->cpu_signature };
	for (int i = 0; i < 12; i++)
		bind_text(st, i + 1, m[i]);
	int rc = exec1(db, st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (prepare(db, "INSERT OR IGNORE INTO firmware (firmware_key, vendor, version, release_date, source)"
			" VALUES (?,?,?,?,?)", &st) != SQLITE_OK)
		return -1;
	const char *f[] = { r->fw_key, r->fw_vendor, r->fw_version, r->fw_release_date, r->fw_source };
	for (int i = 0; i < 5; i++)
		bind_text(st, i + 1, f[i]);
	rc = exec1(db, st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	sqlite3_int64 machine = row_id(db, "SELECT machine_id FROM machines WHERE machine_key = ?", r->machine_key);
	sqlite3_int64 fw = row_id(db, "SELECT firmware_id FROM firmware WHERE firmware_key = ?", r->fw_key);
	if (machine < 0 || fw < 0)
		return -1;
	if (prepare(db, "INSERT INTO runs (run_id, run_id_source, machine_id, firmware_id, microcode, sequence,"
			" firmware_clock, baretop_version, simulated, exit_status, memory_total_mib,"
			" fpdt_reset_end_ns, source_file, secure_boot) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		    &st) != SQLITE_OK)
		return -1;
	bind_text(st, 1, r->run_id);
	bind_text(st, 2, r->run_id_source);
	sqlite3_bind_int64(st, 3, machine);
	sqlite3_bind_int64(st, 4, fw);
	bind_text(st, 5, r->microcode);
	sqlite3_bind_int64(st, 6, r->sequence);
	bind_text(st, 7, r->firmware_clock);
	bind_text(st, 8, r->baretop_version);
	sqlite3_bind_int(st, 9, r->simulated);
	if (r->exit_status >= 0)
		sqlite3_bind_int(st, 10, r->exit_status);
	else
		sqlite3_bind_null(st, 10);
	bind_real(st, 11, r->memory_total_mib);
	bind_real(st, 12, r->fpdt_reset_end_ns);
	bind_text(st, 13, file);
	if (r->secure_boot >= 0)
		sqlite3_bind_int(st, 14, r->secure_boot);
	else
		sqlite3_bind_null(st, 14);
	rc = exec1(db, st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;

	sqlite3_stmt *ws = NULL, *ns = NULL, *es = NULL;
	int ok = prepare(db, "INSERT INTO workloads (run_id, position, name, params, cpu, state, counted,"
			     " simulated, model) VALUES (?,?,?,?,?,?,?,?,?)", &ws) == SQLITE_OK &&
		 prepare(db, "INSERT OR REPLACE INTO nodes (workload_id, node, kind, level, parent, state, value,"
			     " thresh) VALUES (?,?,?,?,?,?,?,?)", &ns) == SQLITE_OK &&
		 prepare(db, "INSERT OR REPLACE INTO events (workload_id, event, median, min, max, raw_median,"
			     " overhead, counter_group) VALUES (?,?,?,?,?,?,?,?)", &es) == SQLITE_OK;
	for (size_t k = 0; ok && k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		sqlite3_reset(ws);
		bind_text(ws, 1, r->run_id);
		sqlite3_bind_int64(ws, 2, (sqlite3_int64)k);
		bind_text(ws, 3, w->name);
		bind_text(ws, 4, w->params);
		sqlite3_bind_int(ws, 5, w->cpu);
		bind_text(ws, 6, w->state);
		sqlite3_bind_int(ws, 7, w->counted);
		sqlite3_bind_int(ws, 8, w->simulated);
		bind_text(ws, 9, w->model);
		if (sqlite3_step(ws) != SQLITE_DONE) {
			ok = 0;
			break;
		}
		sqlite3_int64 wid = sqlite3_last_insert_rowid(db);
		for (size_t i = 0; ok && i < w->n_nodes; i++) {
			const struct bt_fleet_node *n = &w->nodes[i];
			sqlite3_reset(ns);
			sqlite3_bind_int64(ns, 1, wid);
			bind_text(ns, 2, n->name);
			bind_text(ns, 3, n->kind);
			sqlite3_bind_int(ns, 4, n->level);
			bind_text(ns, 5, n->parent);
			bind_text(ns, 6, n->state);
			bind_real(ns, 7, n->has_value ? n->value : NAN);
			if (n->thresh >= 0)
				sqlite3_bind_int(ns, 8, n->thresh);
			else
				sqlite3_bind_null(ns, 8);
			ok = sqlite3_step(ns) == SQLITE_DONE;
		}
		for (size_t i = 0; ok && i < w->n_events; i++) {
			const struct bt_fleet_event *e = &w->events[i];
			sqlite3_reset(es);
			sqlite3_bind_int64(es, 1, wid);
			bind_text(es, 2, e->name);
			sqlite3_bind_double(es, 3, e->median);
			bind_real(es, 4, e->min);
			bind_real(es, 5, e->max);
			bind_real(es, 6, e->raw_median);
			bind_real(es, 7, e->overhead);
			sqlite3_bind_int(es, 8, e->group);
			ok = sqlite3_step(es) == SQLITE_DONE;
		}
	}
	sqlite3_finalize(ws);
	sqlite3_finalize(ns);
	sqlite3_finalize(es);
	return ok ? 0 : -1;
}

/* Each file is a savepoint inside the import's one transaction: a file that
 * fails is rolled back alone, and the database is synced once, at the end
 * (bt_fleet_db_commit), not once per file. */
enum bt_fleet_import bt_fleet_db_import(sqlite3 *db, const struct bt_fleet_run *r, const char *file,
					struct bt_diag *d)
{
	if (row_id(db, "SELECT 1 FROM runs WHERE run_id = ?", r->run_id) == 1)
		return BT_FLEET_ALREADY;
	if (sqlite3_get_autocommit(db) && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		bt_diag_set(d, "%s: BEGIN: %s", file, sqlite3_errmsg(db));
		return BT_FLEET_DB_ERROR;
	}
	if (sqlite3_exec(db, "SAVEPOINT one_file", NULL, NULL, NULL) != SQLITE_OK) {
		bt_diag_set(d, "%s: SAVEPOINT: %s", file, sqlite3_errmsg(db));
		return BT_FLEET_DB_ERROR;
	}
	if (store(db, r, file) != 0) {
		bt_diag_set(d, "%s: not stored: %s", file, sqlite3_errmsg(db));
		sqlite3_exec(db, "ROLLBACK TO one_file; RELEASE one_file", NULL, NULL, NULL);
		return BT_FLEET_DB_ERROR;
	}
	sqlite3_exec(db, "RELEASE one_file", NULL, NULL, NULL);
	return BT_FLEET_IMPORTED;
}

int bt_fleet_db_commit(sqlite3 *db, struct bt_diag *d)
{
	if (sqlite3_get_autocommit(db))
		return 0;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		bt_diag_set(d, "COMMIT: %s", sqlite3_errmsg(db));
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The fleet store (`baretop-host fleet`, docs/fleet-schema.md): one
 * interface, two engines. SQLite (sqlite.c) is the default, a file with
 * no server; PostgreSQL (pg.c, libpq) is chosen by a connection URI
 * (postgresql://... or postgres://...) and takes many importers at once.
 *
 * This folder is the store's room; its files call each other one way
 * only (the layering check sees every arrow):
 *   open.c    picks the engine, closes the store   -> sqlite.c, pg.c, names.c
 *   import.c  one results file into the store       -> names.c, the engine table
 *   sqlite.c, pg.c  the engines                     -> sql.c, summary.c
 *   summary.c the printer, the statistics in C      -> sql.c
 *   names.c   the dictionary ids seen (name cache)  -> sql.c
 *   sql.c     the SQL both engines run, the schema's shared tables, the
 *             string helpers                         -> nothing of the store
 *
 * The import logic is written once (import.c: which rows a results file
 * makes, in which order, what "already imported" means, the retry of a
 * file the server aborted); an engine supplies the primitives below. The
 * summary's statistics are an engine's too (summary.h): the SQLite engine
 * computes them in C from the unit values, the PostgreSQL engine in SQL on
 * the server; both hand the same block records to the one printer.
 *
 * Every primitive returns bt_status: BT_OK; BT_ERR_IO a database error
 * (message in d); BT_ERR_NOMEM; BT_ERR_ABORTED the server rolled the
 * file's transaction back for a reason a second try cures (serialization
 * failure, deadlock victim): the import tries again.
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_STORE_H
#define TOOLS_BARETOP_HOST_FLEET_STORE_H

#include <stdint.h>

#include "analysis/fleet-record.h"
#include "base/status.h"

struct bt_fleet_store;
struct bt_fleet_summary_opts;
struct bt_fleet_block;
struct bt_fleet_path_node;

/* The row counts printed after the import ("database ..."). */
enum bt_fleet_count {
	BT_FC_MACHINES, BT_FC_NOSMBIOS, BT_FC_RUNS, BT_FC_SIMULATED, BT_FC_WORKLOADS, BT_FC_NODES,
	BT_FC_EVENTS, BT_FC_FIRMWARE_VERSIONS, BT_FC_MICROCODES, BT_FC_N
};

/* Called once per block (workload with params, model, node) in the
 * summary's order; a status other than BT_OK stops and is returned. */
typedef bt_status (*bt_fleet_block_fn)(void *ctx, const struct bt_fleet_block *b);
/* Called once per (workload, params, model) with its tree nodes' fleet
 * medians (over every run's value) and flag counts. */
typedef bt_status (*bt_fleet_path_fn)(void *ctx, const char *workload, const char *params, const char *model,
				 struct bt_fleet_path_node *p, size_t n);

struct bt_fleet_engine {
	const char *name;                       /* "SQLite", "PostgreSQL" */
	/* one results file is one unit of work: begin, rows, end(commit?) */
	bt_status (*begin_file)(struct bt_fleet_store *s, struct bt_diag *d);
	bt_status (*end_file)(struct bt_fleet_store *s, int commit, struct bt_diag *d);
	/* the id of the row of key vals[0] (inserted with vals when absent;
	 * an existing row is left as the first import wrote it) */
	bt_status (*machine_id)(struct bt_fleet_store *s, const char *const vals[12], int64_t *id, struct bt_diag *d);
	bt_status (*firmware_id)(struct bt_fleet_store *s, const char *const vals[5], int64_t *id, struct bt_diag *d);
	/* the runs row; *inserted 0 when the run id is there already (the
	 * file adds nothing and its unit of work is rolled back) */
	bt_status (*insert_run)(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t machine, int64_t fw,
			  const char *file, int *inserted, struct bt_diag *d);
	/* every workload of r, ids[k] set for r->workloads[k] */
	bt_status (*insert_workloads)(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t *ids,
				struct bt_diag *d);
	/* the id of a name in a dictionary table, inserted when absent:
	 * BT_FLEET_DICT_NODE key = node, kind, level, parent ("" for absent);
	 * BT_FLEET_DICT_EVENT key = event. The import caches the ids. */
	bt_status (*dict_id)(struct bt_fleet_store *s, int dict, const char *const key[4], int64_t *id,
		       struct bt_diag *d);
	/* the nodes and events of every counted workload; keep[k][i] is 0 for
	 * a node whose name comes again later in the same tree, keep[k][n_nodes
	 * + i] for such an event (the later one is stored: the file's last
	 * word); name[k][i] the dictionary id of each (same layout) */
	bt_status (*insert_values)(struct bt_fleet_store *s, const struct bt_fleet_run *r, const int64_t *ids,
			     char *const *keep, int64_t *const *name, struct bt_diag *d);
	/* the import's end (SQLite: its one transaction) */
	bt_status (*finish)(struct bt_fleet_store *s, struct bt_diag *d);
	/* *n: the first column of the first row of sql (one of the shared
	 * queries of sql.h), -1 when the row or the column is NULL; text, when
	 * not NULL, gets the column as text instead (truncated to len). param,
	 * when not NULL, is bound to $1. */
	bt_status (*query_one)(struct bt_fleet_store *s, const char *sql, const char *param, long long *n,
			       char *text, size_t len, struct bt_diag *d);
	/* fn for each distinct name of a tree node in the database */
	bt_status (*node_names)(struct bt_fleet_store *s, bt_status (*fn)(void *ctx, const char *name), void *ctx,
				struct bt_diag *d);
	bt_status (*blocks)(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o, bt_fleet_block_fn fn,
			    void *ctx, struct bt_diag *d);
	bt_status (*paths)(struct bt_fleet_store *s, bt_fleet_path_fn fn, void *ctx, struct bt_diag *d);
	void (*close)(struct bt_fleet_store *s);
};

enum { BT_FLEET_DICT_NODE, BT_FLEET_DICT_EVENT };

struct bt_fleet_store {
	const struct bt_fleet_engine *e;
	char where[256];                        /* file name, or the URI without its password */
	struct bt_fleet_name_cache *names;      /* names.c: dictionary ids seen */
};

/* 1 when db names a PostgreSQL server (postgresql:// or postgres://). */
int bt_fleet_is_postgres_uri(const char *db);

/* Opens the store db names (a SQLite file, or a PostgreSQL URI), creating
 * the schema where it is missing (open.c). */
bt_status bt_fleet_store_open(const char *db, struct bt_fleet_store **ret, struct bt_diag *d);
/* Closes the engine and frees what the store kept (open.c). */
void bt_fleet_store_close(struct bt_fleet_store *s);
/* The engines' own openers (what bt_fleet_store_open picks from). */
bt_status bt_fleet_sqlite_open(const char *path, struct bt_fleet_store **ret, struct bt_diag *d);
bt_status bt_fleet_pg_open(const char *uri, struct bt_fleet_store **ret, struct bt_diag *d);

/* What the import did with one results file (import.c). */
enum bt_fleet_import {
	BT_FLEET_IMPORTED,
	BT_FLEET_ALREADY,       /* its run id was stored before, from the same path */
	BT_FLEET_SAME_RUN_ID,   /* its run id was stored before from another file: counted once,
				 * that file named in the import's "other" */
};

/* What the import says of one file beyond its rows. */
struct bt_fleet_import_note {
	enum bt_fleet_import what;
	char other[512];        /* BT_FLEET_SAME_RUN_ID: the path the run was stored from */
	/* not empty: the file's SMBIOS UUID keys a machine row of another
	 * real system serial (this one): a UUID two machines share that is
	 * not a known placeholder; the run is counted as that machine's */
	char uuid_serial[128];
};

/* Stores one run and its machine and firmware rows as needed, as one unit
 * of work: whole or not at all. A run id already stored adds nothing
 * (note->what BT_FLEET_ALREADY, or BT_FLEET_SAME_RUN_ID with the path it
 * was stored from), also when another importer stores it at the same
 * moment. */
bt_status bt_fleet_import(struct bt_fleet_store *s, const struct bt_fleet_run *r, const char *file,
			  struct bt_fleet_import_note *note, struct bt_diag *d);

#endif

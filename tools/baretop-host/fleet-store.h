/* SPDX-License-Identifier: MIT */
/*
 * The fleet store (`baretop-host fleet`, docs/fleet-schema.md): one
 * interface, two engines. SQLite (fleet-db.c) is the default, a file with
 * no server; PostgreSQL (fleet-pg.c, libpq) is chosen by a connection URI
 * (postgresql://... or postgres://...) and takes many importers at once.
 *
 * The import logic is written once (fleet-import.c: which rows a results
 * file makes, in which order, what "already imported" means, the retry of
 * a file the server aborted); an engine supplies the primitives below.
 * The summary's statistics are an engine's too (fleet-summary.h): the
 * SQLite engine computes them in C from the unit values, the PostgreSQL
 * engine in SQL on the server; both hand the same block records to the
 * one printer.
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_STORE_H
#define TOOLS_BARETOP_HOST_FLEET_STORE_H

#include <stdint.h>

#include "analysis/fleet-record.h"

struct bt_fleet_store;
struct bt_fleet_summary_opts;
struct bt_fleet_block;
struct bt_fleet_path_node;

/* What a primitive returns: done, a database error (message in d), or the
 * server aborted the file's transaction for a reason that a second try
 * cures (serialization failure, deadlock victim): the import retries it. */
enum { BT_FLEET_OK = 0, BT_FLEET_ERR = -1, BT_FLEET_RETRY = -2 };

/* The row counts printed after the import ("database ..."). */
enum bt_fleet_count {
	BT_FC_MACHINES, BT_FC_NOSMBIOS, BT_FC_RUNS, BT_FC_SIMULATED, BT_FC_WORKLOADS, BT_FC_NODES,
	BT_FC_EVENTS, BT_FC_FIRMWARE_VERSIONS, BT_FC_MICROCODES, BT_FC_N
};

/* Called once per block (workload with params, model, node) in the
 * summary's order; nonzero stops. */
typedef int (*bt_fleet_block_fn)(void *ctx, const struct bt_fleet_block *b);
/* Called once per (workload, params, model) with its tree nodes' fleet
 * medians (over every run's value) and flag counts. */
typedef void (*bt_fleet_path_fn)(void *ctx, const char *workload, const char *params, const char *model,
				 struct bt_fleet_path_node *p, size_t n);

struct bt_fleet_engine {
	const char *name;                       /* "SQLite", "PostgreSQL" */
	/* one results file is one unit of work: begin, rows, end(commit?) */
	int (*begin_file)(struct bt_fleet_store *s, struct bt_diag *d);
	int (*end_file)(struct bt_fleet_store *s, int commit, struct bt_diag *d);
	/* the id of the row of key vals[0] (inserted with vals when absent;
	 * an existing row is left as the first import wrote it) */
	int (*machine_id)(struct bt_fleet_store *s, const char *const vals[12], int64_t *id, struct bt_diag *d);
	int (*firmware_id)(struct bt_fleet_store *s, const char *const vals[5], int64_t *id, struct bt_diag *d);
	/* the runs row; *inserted 0 when the run id is there already (the
	 * file adds nothing and its unit of work is rolled back) */
	int (*insert_run)(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t machine, int64_t fw,
			  const char *file, int *inserted, struct bt_diag *d);
	/* every workload of r, ids[k] set for r->workloads[k] */
	int (*insert_workloads)(struct bt_fleet_store *s, const struct bt_fleet_run *r, int64_t *ids,
				struct bt_diag *d);
	/* the id of a name in a dictionary table, inserted when absent:
	 * BT_FLEET_DICT_NODE key = node, kind, level, parent ("" for absent);
	 * BT_FLEET_DICT_EVENT key = event. The import caches the ids. */
	int (*dict_id)(struct bt_fleet_store *s, int dict, const char *const key[4], int64_t *id,
		       struct bt_diag *d);
	/* the nodes and events of every counted workload; keep[k][i] is 0 for
	 * a node whose name comes again later in the same tree, keep[k][n_nodes
	 * + i] for such an event (the later one is stored: the file's last
	 * word); name[k][i] the dictionary id of each (same layout) */
	int (*insert_values)(struct bt_fleet_store *s, const struct bt_fleet_run *r, const int64_t *ids,
			     char *const *keep, int64_t *const *name, struct bt_diag *d);
	/* the import's end (SQLite: its one transaction) */
	int (*finish)(struct bt_fleet_store *s, struct bt_diag *d);
	long long (*count)(struct bt_fleet_store *s, enum bt_fleet_count what);
	/* fn for each distinct name of a tree node in the database */
	int (*node_names)(struct bt_fleet_store *s, void (*fn)(void *ctx, const char *name), void *ctx);
	int (*blocks)(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o, bt_fleet_block_fn fn,
		      void *ctx);
	int (*paths)(struct bt_fleet_store *s, bt_fleet_path_fn fn, void *ctx);
	void (*close)(struct bt_fleet_store *s);
};

enum { BT_FLEET_DICT_NODE, BT_FLEET_DICT_EVENT };

struct bt_fleet_store {
	const struct bt_fleet_engine *e;
	char where[256];                        /* file name, or the URI without its password */
	struct bt_fleet_name_cache *names;      /* fleet-import.c: dictionary ids seen */
};

/* Frees the store's name cache (an engine's close calls it). */
void bt_fleet_names_free(struct bt_fleet_store *s);

/* 1 when db names a PostgreSQL server (postgresql:// or postgres://). */
int bt_fleet_is_postgres_uri(const char *db);

/* Opens the store db names (a SQLite file, or a PostgreSQL URI), creating
 * the schema where it is missing. NULL with a message on failure. */
struct bt_fleet_store *bt_fleet_store_open(const char *db, struct bt_diag *d);
struct bt_fleet_store *bt_fleet_sqlite_open(const char *path, struct bt_diag *d);
struct bt_fleet_store *bt_fleet_pg_open(const char *uri, struct bt_diag *d);

/* The import status of one results file (fleet-import.c). */
enum bt_fleet_import { BT_FLEET_IMPORTED, BT_FLEET_ALREADY, BT_FLEET_DB_ERROR };

/* Stores one run and its machine and firmware rows as needed, as one unit
 * of work: whole or not at all. A run id already stored adds nothing
 * (BT_FLEET_ALREADY), also when another importer stores it at the same
 * moment. */
enum bt_fleet_import bt_fleet_import(struct bt_fleet_store *s, const struct bt_fleet_run *r, const char *file,
				     struct bt_diag *d);

/* The row count queries, the same text for both engines. */
extern const char *const BT_FLEET_COUNT_SQL[BT_FC_N];

#endif

/* SPDX-License-Identifier: MIT */
/*
 * What both fleet engines share (store.h): the SQL they both run, the
 * schema of the tables they lay out alike, written once with the few
 * column types that differ as placeholders, and the fleet code's string
 * helpers. Depends on nothing else of the store, so every other file of
 * the store may use it without a circle.
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_SQL_H
#define TOOLS_BARETOP_HOST_FLEET_SQL_H

#include <stddef.h>

#include "base/status.h"
#include "tools/baretop-host/fleet/store.h"

/* The row count queries ("database ..." after the import). */
extern const char *const BT_FLEET_COUNT_SQL[BT_FC_N];
/* The path a run id was first imported from ($1: the run id). */
extern const char BT_FLEET_RUN_SOURCE_SQL[];
/* The system serial of the machine row of a key ($1: the machine key). */
extern const char BT_FLEET_MACHINE_SERIAL_SQL[];
/* How many SMBIOS UUIDs more than one machine row carries (placeholder
 * UUIDs, told apart by serial, board, firmware and microcode), and the
 * first of them with its machine count. */
extern const char BT_FLEET_SHARED_UUIDS_SQL[];
extern const char BT_FLEET_SHARED_UUID_FIRST_SQL[];

/* The column types the engines spell differently. */
struct bt_fleet_dialect {
	const char *id;         /* a 64-bit generated key */
	const char *id32;       /* a 32-bit generated key (dictionary ids, kept in arrays by PostgreSQL) */
	const char *big;        /* a 64-bit integer (references to ids, sequence numbers) */
	const char *real;       /* a double */
	const char *now;        /* the import time, with its default */
};
extern const struct bt_fleet_dialect BT_FLEET_SQLITE, BT_FLEET_POSTGRES;

/* The CREATE statements of the tables both engines lay out alike
 * (machines, firmware, runs, workloads, node_names, event_names and their
 * indexes; docs/fleet-schema.md) in dialect x, in *ret (free it). The
 * value tables and views are each engine's own (sqlite.c, pg.c: one row
 * per value there, one array per workload here). */
bt_status bt_fleet_schema_shared(const struct bt_fleet_dialect *x, char **ret);

/* A copy of s ("" for NULL); NULL when out of memory. */
char *bt_fleet_dup(const char *s);
/* p with room for n + 1 elements of size (doubling from 16, *cap
 * updated); NULL when out of memory (p is then still the caller's). */
void *bt_fleet_grow(void *p, size_t *cap, size_t n, size_t size);

#endif

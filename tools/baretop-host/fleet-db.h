/* SPDX-License-Identifier: MIT */
/*
 * The fleet database (`baretop-host fleet`): SQLite, schema in fleet-db.c
 * (BT_FLEET_SCHEMA) and docs/fleet-schema.md. One results file is one
 * savepoint: it is stored whole or not at all.
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_DB_H
#define TOOLS_BARETOP_HOST_FLEET_DB_H

#include <sqlite3.h>

#include "analysis/fleet-record.h"

extern const char BT_FLEET_SCHEMA[];

/* Opens (creating if needed) the database at path and applies the schema.
 * NULL with a message in d on failure. */
sqlite3 *bt_fleet_db_open(const char *path, struct bt_diag *d);

enum bt_fleet_import { BT_FLEET_IMPORTED, BT_FLEET_ALREADY, BT_FLEET_DB_ERROR };

/* Stores one run (its machine and firmware rows as needed). A run id already
 * in the database adds nothing (BT_FLEET_ALREADY). */
enum bt_fleet_import bt_fleet_db_import(sqlite3 *db, const struct bt_fleet_run *r, const char *file,
					struct bt_diag *d);

/* Commits what bt_fleet_db_import stored (one transaction for the whole
 * import). 0, or -1 with a message. */
int bt_fleet_db_commit(sqlite3 *db, struct bt_diag *d);

#endif

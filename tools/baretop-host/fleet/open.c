/* SPDX-License-Identifier: MIT */
/*
 * The engine picker and the store's close (store.h): the one place that
 * knows both engines, so neither engine nor the import needs the other.
 */
#include <string.h>

#include "tools/baretop-host/fleet/names.h"
#include "tools/baretop-host/fleet/store.h"

int bt_fleet_is_postgres_uri(const char *db)
{
	return !strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11);
}

bt_status bt_fleet_store_open(const char *db, struct bt_fleet_store **ret, struct bt_diag *d)
{
	*ret = NULL;
	return bt_fleet_is_postgres_uri(db) ? bt_fleet_pg_open(db, ret, d) : bt_fleet_sqlite_open(db, ret, d);
}

void bt_fleet_store_close(struct bt_fleet_store *s)
{
	if (!s)
		return;
	bt_fleet_names_free(s->names);
	s->names = NULL;
	s->e->close(s);
}

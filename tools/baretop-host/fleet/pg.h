/* SPDX-License-Identifier: MIT */
/*
 * What the PostgreSQL engine's two files share (pg.c: the store, the
 * import; pg-summary.c: the summary the server computes): the store's
 * layout and the reading of a failed result, inline so that pg-summary.c
 * needs nothing of pg.c.
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_PG_H
#define TOOLS_BARETOP_HOST_FLEET_PG_H

#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "tools/baretop-host/fleet/store.h"

struct pg_store {
	struct bt_fleet_store s;
	PGconn *c;
};

static inline PGconn *conn(struct bt_fleet_store *s)
{
	return ((struct pg_store *)s)->c;
}

/* A failed result: BT_ERR_ABORTED for the SQLSTATEs a second try cures,
 * else BT_ERR_IO; the message into d. Clears res. */
static inline bt_status bt_fleet_pg_failed(PGresult *res, struct bt_fleet_store *s, const char *what, struct bt_diag *d)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	int retry = state && (!strcmp(state, "40001") || !strcmp(state, "40P01"));
	const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(conn(s));
	size_t len = strlen(msg);
	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	bt_diag_set(d, "%s: %.*s%s%s%s", what, (int)len, msg, state ? " (SQLSTATE " : "", state ? state : "",
		    state ? ")" : "");
	PQclear(res);
	return retry ? BT_ERR_ABORTED : BT_ERR_IO;
}

/* The engine's summary primitives (store.h: blocks, paths), pg-summary.c. */
bt_status bt_fleet_pg_blocks(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o, bt_fleet_block_fn fn,
			     void *ctx, struct bt_diag *d);
bt_status bt_fleet_pg_paths(struct bt_fleet_store *s, bt_fleet_path_fn fn, void *ctx, struct bt_diag *d);

#endif

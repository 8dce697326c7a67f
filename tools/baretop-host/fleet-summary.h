/* SPDX-License-Identifier: MIT */
/*
 * The fleet summary (`baretop-host fleet`): per workload, model and Top-Down
 * node, the fleet median and MAD over machines, the machines that stand out
 * (metrics/robust-stats.h), and the same per firmware version and microcode
 * group, as an aligned text table and as CSV (the same rows and columns).
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_SUMMARY_H
#define TOOLS_BARETOP_HOST_FLEET_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>
#include <sqlite3.h>

/* Fewer machines than this with a value: median and MAD are printed, nothing is flagged. */
#define BT_FLEET_MIN_MACHINES 5

struct bt_fleet_summary_opts {
	double k;               /* outlier limit in MADs */
	const char *node;       /* only this node (NULL: every tree node) */
	FILE *text;             /* the table as text, or NULL */
	FILE *csv;              /* the table as CSV, or NULL */
	bool only_outliers;     /* rows where a machine or a group stands out */
};

/* Prints the summary of the whole database, one block per workload with its
 * parameters (a workload run at another size is another measurement, never
 * pooled), model and node. Returns the number of machines that stand out on
 * some node, -1 on a database error, -2 when o->node names no node of the
 * database (messages on stderr, with the nearest node name). */
int bt_fleet_summary(sqlite3 *db, const struct bt_fleet_summary_opts *o);

#endif

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
#include <stddef.h>
#include <stdio.h>

#include "metrics/robust-stats.h"
#include "tools/baretop-host/fleet/store.h"

/* Fewer machines than this with a value: median and MAD are printed, nothing is flagged. */
#define BT_FLEET_MIN_MACHINES 5

struct bt_fleet_summary_opts {
	double k;               /* outlier limit in MADs */
	const char *node;       /* only this node (NULL: every tree node) */
	FILE *text;             /* the table as text, or NULL */
	FILE *csv;              /* the table as CSV, or NULL */
	bool only_outliers;     /* rows where a machine or a group stands out */
};

/* A unit (machine x firmware version x microcode) that stands out. */
struct bt_fleet_unit_out {
	const char *machine, *firmware, *microcode;
	double value;           /* the median of its runs' values */
};

/* A group: a firmware version as a whole (microcode "(any)", only when the
 * version runs with more than one microcode) or a (version, microcode). */
struct bt_fleet_group {
	const char *firmware, *microcode;
	size_t n;               /* units */
	double median, mad;
	struct bt_robust rest;  /* of the units outside the group */
	size_t simulated, runs; /* runs behind its units; of them SIMULATED */
};

/* One block of the summary: a workload with its parameters (a workload run
 * at another size is another measurement, never pooled), model and node,
 * with its statistics over units, however an engine computed them. */
struct bt_fleet_block {
	const char *workload, *params, *model, *node;
	struct bt_robust fleet;
	size_t simulated, runs;
	size_t n_out;           /* units that stand out, by (firmware, microcode, machine) */
	const struct bt_fleet_unit_out *out;
	size_t n_groups;        /* the "(any)" groups by version, then the (version, microcode) ones */
	const struct bt_fleet_group *groups;
};

/* A tree node of one (workload, params, model) for the bottleneck path. */
struct bt_fleet_path_node {
	char *node, *parent;
	double median;          /* over every run's value */
	size_t flagged, known;  /* runs that flag it; runs with a known flag */
};

/* The statistics of one block computed in C from its units' values (for
 * an engine without percentile functions: SQLite). vals[i][0..n_vals[i])
 * are unit i's run values (reordered), sim[i] how many are SIMULATED. The
 * block goes to fn. Returns fn's status, or BT_ERR_NOMEM. */
struct bt_fleet_unit_in {
	char *machine, *firmware, *microcode;
	double *vals;
	size_t n, cap;
	size_t simulated;
};
bt_status bt_fleet_block_of_units(const struct bt_fleet_summary_opts *o, const char *workload,
				  const char *params, const char *model, const char *node, struct bt_fleet_unit_in *u,
				  size_t n, bt_fleet_block_fn fn, void *ctx);

/* Prints the summary of the whole store, one block per workload with its
 * parameters, model and node; *machines the number of machines that stand
 * out on some node. BT_ERR_NOT_FOUND when o->node names no node of the
 * database (d says so, with the nearest node name); BT_ERR_IO a database
 * error; BT_ERR_NOMEM. */
bt_status bt_fleet_summary(struct bt_fleet_store *s, const struct bt_fleet_summary_opts *o, size_t *machines,
			   struct bt_diag *d);

#endif

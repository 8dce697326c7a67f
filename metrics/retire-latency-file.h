/* SPDX-License-Identifier: MIT */
/*
 * Retire-latency tables a user brings (`--retire-latency-file F`), the third
 * source of a formula's EVENT:R after a measured value and the model's
 * published defaults. Two layouts are read:
 *  - Intel's retire-latency JSON (perfmon `graniterapids_retire_latency.json`):
 *    {"Platform": {...}, "Data": {EVENT: {"MEAN": m, "MIN": a, "MAX": b}}};
 *  - a flat object {EVENT: cycles}, alone or as the "retire_latency" member
 *    of a count file (../shared/testdata/tma/FORMAT.md).
 * An event may be written EVENT, EVENT:R or EVENT:retire_latency. Every
 * value (MEAN, and MIN and MAX when given) must be a number of cycles from 0
 * to 65535, what Timed PEBS can record (a table with -1 would bring perf's
 * "not measured" in as if it were a latency), with MIN <= MEAN <= MAX;
 * errors say file:line:column.
 */
#ifndef METRICS_RETIRE_LATENCY_FILE_H
#define METRICS_RETIRE_LATENCY_FILE_H

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/status.h"
#include "metrics/model.h"

struct bt_rl_entry {
	const char *event;        /* canonical: without :R / :retire_latency */
	double mean, min, max;    /* cycles; min/max NaN when the file has none */
	uint32_t line, col;       /* where its value starts, for messages */
};

struct bt_rl_file {
	const char *path;
	const char *layout;       /* "Intel retire-latency JSON" or "flat" */
	struct bt_rl_entry *entries;
	unsigned n;
};

bt_status bt_rl_file_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			   struct bt_rl_file *ret, struct bt_diag *d);
bt_status bt_rl_file_read(struct bt_arena *a, const char *path, struct bt_rl_file *ret,
			  struct bt_diag *d);
/* Every entry names a retire-latency input of m or an event of its published
 * table; else BT_ERR_INVALID, file:line:column and the nearest name. */
bt_status bt_rl_file_check(const struct bt_rl_file *f, const struct bt_model *m, struct bt_diag *d);
/* The entry for a model's latency input (by event name), or NULL. */
const struct bt_rl_entry *bt_rl_file_find(const struct bt_rl_file *f, const char *event);
/* Fills every latency of c still not given (source BT_RL_NONE) that the file
 * has, as source BT_RL_FILE; returns how many. */
unsigned bt_rl_file_apply(const struct bt_rl_file *f, struct bt_counts *c);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * --atlas: the event list of --events-file counted over the known-count
 * kernels on this PMU (or the simulated one, which counts each kernel's
 * model and labels what it does not model), printed, kept for the results
 * file's "atlas" section, and written alone (--atlas-json) and as a
 * validation spec (--atlas-spec) when asked.
 */
#ifndef APP_ATLAS_MODE_H
#define APP_ATLAS_MODE_H

#include "app/boot-run.h"
#include "app/count.h"
#include "app/options.h"
#include "app/platform.h"
#include "base/json-write.h"

struct bt_atlas_run;

/* c is NULL when this run cannot count (why says why). Returns the exit
 * status: BT_EXIT_OK, BT_EXIT_FAILED when an invariant is violated,
 * BT_EXIT_NOTHING_VALIDATED without a PMU, BT_EXIT_USAGE for a list that
 * cannot be read (its located error printed). */
int bt_atlas_mode(struct bt_count_ctx *c, const char *why, const struct bt_options *opt,
		  struct bt_platform *plat, const struct bt_boot_run *boot,
		  struct bt_atlas_run **ret);
void bt_atlas_run_json(struct bt_jw *j, const void *run);
void bt_atlas_run_free(struct bt_atlas_run *a);

#endif

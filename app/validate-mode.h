/* SPDX-License-Identifier: MIT */
/*
 * --validate: the built-in spec or --validate-spec FILE checked over the
 * known-count kernels on this PMU (or the simulated one, which then counts
 * each kernel's model: synth/kernel-counts.c), reported on the console and kept for
 * the results file's "validation" section.
 */
#ifndef APP_VALIDATE_MODE_H
#define APP_VALIDATE_MODE_H

#include "app/count.h"
#include "app/options.h"
#include "base/json-write.h"

struct bt_validation_run;

/* c is NULL when this run cannot count (why says why). Returns the exit
 * status: BT_EXIT_OK, BT_EXIT_FAILED when a check FAILs,
 * BT_EXIT_NOTHING_VALIDATED without a PMU, BT_EXIT_USAGE for a spec file
 * that cannot be read or is malformed (its located error printed). *ret
 * (free with bt_validation_run_free) feeds bt_validation_run_json. */
int bt_validate_mode(struct bt_count_ctx *c, const char *why, const struct bt_options *opt,
		     struct bt_validation_run **ret);
/* --bring-up: records in c, per model event, the check that FAILed (or else
 * was SKIPped) for it, so each tree marks the nodes that read it
 * (untrusted). *n_failed / *n_skipped: the model events so judged. */
bt_status bt_validation_mark_untrusted(const struct bt_validation_run *v, struct bt_count_ctx *c,
				       unsigned *n_failed, unsigned *n_skipped);
void bt_validation_run_json(struct bt_jw *j, const void *run);
void bt_validation_run_free(struct bt_validation_run *v);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Count files: the case format of ../shared/testdata/tma/FORMAT.md, a JSON
 * object with at least "counts" {canonical event: number}, and optionally
 * "model", "case", "kind", "retire_latency" {event: cycles} (absent = not
 * measured) and "constants" {name: number}. Other members are ignored, so a
 * test vector (with its "expected" values) is a count file too.
 */
#ifndef METRICS_COUNTS_FILE_H
#define METRICS_COUNTS_FILE_H

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/json-read.h"
#include "metrics/model.h"
#include "base/status.h"

struct bt_count_file {
	const char *path;
	const char *model;        /* "model" member, or NULL */
	const char *case_name;    /* "case", or NULL */
	const char *kind;         /* "kind", or NULL */
	const struct bt_json *counts, *retire_latency, *constants;
};

bt_status bt_count_file_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			      struct bt_count_file *ret, struct bt_diag *d);
bt_status bt_count_file_read(struct bt_arena *a, const char *path, struct bt_count_file *ret,
			     struct bt_diag *d);

/* Puts the file's counts, latencies and constants into c (after bt_counts_reset).
 * Names the model does not use are skipped; *ret_unused (if not NULL) says how many. */
bt_status bt_count_file_apply(const struct bt_count_file *f, struct bt_counts *c,
			      unsigned *ret_unused, struct bt_diag *d);

#endif

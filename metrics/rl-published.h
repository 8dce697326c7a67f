/* SPDX-License-Identifier: MIT */
/*
 * Published retire latencies: per model, the mean (with the minimum and
 * maximum where given) of each EVENT:R input, as its publisher states it.
 * They stand in for a latency that was not measured, as Linux perf's
 * intel-tpebs.c does with an event's RetirementLatencyMean when it has no
 * sample (tpebs_mode mean) and as toplev does with its <cpu>-retlat.json
 * MEAN (toplev.py lookup_retlat); `--no-default-retire-latency` falls back
 * to the native formula's own cap instead. A measured latency always wins.
 *
 * Two generated tables (tools/gen-retlat; tests/suite/20-models-regen.sh):
 *  - metrics/gen/rl-intel.c: Intel perfmon's *_retire_latency.json, the
 *    files its mapfile.csv lists as "retire latency" (Granite Rapids; the
 *    same numbers Linux perf carries as RetirementLatencyMean/Min/Max);
 *  - metrics/gen/rl-pmu-tools.c: pmu-tools' <cpu>-retlat.json for the
 *    models Intel publishes none for (Lunar Lake, Arrow Lake, Meteor Lake
 *    P-cores), the defaults toplev loads.
 * A model's latencies come from one of them, Intel's first.
 */
#ifndef METRICS_RL_PUBLISHED_H
#define METRICS_RL_PUBLISHED_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/status.h"
#include "metrics/model-def.h"

/* One event's published latency, compact (no pointer, no relocation in
 * the EFI image): its name at `name` in the table's string blob, the mean
 * in hundredths of a cycle (every published mean has two decimals; the
 * generator checks it), the range where the publisher gives one. */
struct bt_rl_row {
	uint32_t mean_x100;
	uint16_t name;
	uint16_t min, max;
	uint8_t has_range;
};

struct bt_rl_published {
	const char *model;  /* model id */
	const char *source; /* publisher, file and version */
	const char *names;  /* NUL-separated event names */
	const struct bt_rl_row *rows;
	unsigned n;
};

extern const struct bt_rl_published bt_rl_intel[], bt_rl_pmu_tools[];
extern const unsigned bt_rl_intel_count, bt_rl_pmu_tools_count;

/* The published retire latencies of model id, or NULL. */
const struct bt_rl_published *bt_rl_published_find(const char *model_id);
/* def's retire_latency, n_retire_latency and retire_latency_source from
 * the table of def->id (none: 0 and NULL), for a model loaded from files
 * and a built-in one alike; the entries are made in a. */
bt_status bt_rl_published_set(struct bt_arena *a, struct bt_model_def *def);

#endif

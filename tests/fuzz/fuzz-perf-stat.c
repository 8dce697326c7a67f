/* SPDX-License-Identifier: MIT */
/* libFuzzer: perf stat -x, / -j output (analysis/perf-stat.h) parsed, its
 * events matched to a built-in model and applied, then evaluated. */
#include <stdint.h>

#include "metrics/builtin.h"
#include "analysis/perf-stat.h"
#include "pmu/event-encode.h"

/* perf's encoded spellings are read by pmu/'s event parser */
static const struct bt_perf_match perf_match = { bt_event_parse_encoding };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bt_model *model;
static struct bt_counts *counts;
static struct bt_result *result;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_diag d;
	if (!model) {
		if (bt_model_open(bt_builtin_find("SKL"), &model, &d) != BT_OK)
			return 0;
		counts = bt_counts_new(model);
		result = bt_result_new(model);
	}
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_perf_stat f;
	if (bt_perf_stat_parse(&a, (const char *)data, size, "fuzz", &f, &d) == BT_OK) {
		struct bt_perf_row_use *uses = bt_arena_alloc(&a, f.n * sizeof(*uses));
		if (uses && bt_perf_stat_apply(&f, &perf_match, counts, uses, &d) == BT_OK)
			bt_evaluate(model, counts, result);
	}
	bt_arena_free(&a);
	return 0;
}

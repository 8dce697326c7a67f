/* SPDX-License-Identifier: MIT */
/* libFuzzer: a retire-latency file (--retire-latency-file, read from the ESP
 * by metrics/retire-latency-file.c) parsed, its names checked against a
 * model with retire-latency inputs (GNR), applied and evaluated. */
#include <stdint.h>

#include "metrics/builtin.h"
#include "metrics/retire-latency-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bt_model *model;
static struct bt_counts *counts;
static struct bt_result *result;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_diag d;
	if (!model) {
		if (bt_model_open(bt_builtin_find("GNR"), &model, &d) != BT_OK)
			return 0;
		counts = bt_counts_new(model);
		result = bt_result_new(model);
		for (unsigned i = 0; i < bt_model_event_count(model); i++)
			counts->events[i] = 1e6 + 1e3 * i;
	}
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_rl_file f;
	if (bt_rl_file_parse(&a, (const char *)data, size, "fuzz", &f, &d) == BT_OK &&
	    bt_rl_file_check(&f, model, &d) == BT_OK) {
		for (unsigned i = 0; i < bt_model_retire_latency_count(model); i++)
			counts->retire_latency_source[i] = BT_RL_NONE;
		bt_rl_file_apply(&f, counts);
		bt_evaluate(model, counts, result);
	}
	bt_arena_free(&a);
	return 0;
}

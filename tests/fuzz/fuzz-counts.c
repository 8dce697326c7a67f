/* SPDX-License-Identifier: MIT */
/* libFuzzer: count files (FORMAT.md) read and applied to a built-in model,
 * evaluated and reported. */
#include <stdint.h>
#include <stdio.h>

#include "metrics/builtin.h"
#include "metrics/counts-file.h"
#include "report/tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bt_model *model;
static struct bt_counts *counts;
static struct bt_result *result;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_diag d;
	if (!model) {
		if (bt_model_open(bt_builtin_find("ICL"), &model, &d) != BT_OK)
			return 0;
		counts = bt_counts_new(model);
		result = bt_result_new(model);
	}
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_count_file cf;
	if (bt_count_file_parse(&a, (const char *)data, size, "fuzz", &cf, &d) == BT_OK) {
		bt_count_file_apply(&cf, counts, NULL, &d);
		bt_evaluate(model, counts, result);
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			struct bt_report_opts o = { .input_label = "fuzz" };
			bt_report_json(f, model, result, &o);
			bt_report_text(f, model, result, &o);
			fclose(f);
		}
	}
	bt_arena_free(&a);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* libFuzzer: an Intel perfmon native metrics file (and events file) through
 * the run-time model loader (metrics/load-perfmon.c), as --model-files reads
 * it from the ESP; input layout in fuzz-model-files.h. */
#include "tests/fuzz/fuzz-model-files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fz_split(data, size, fz_default_events) < 0)
		return 0;
	/* what app/count.c load_model_files builds when no built-in model is like it */
	struct bt_model_recipe r = { .id = "FILES", .vendor = "GenuineIntel", .uarch = "fuzz",
				     .format = BT_FMT_PERFMON, .pipeline_width = 4 };
	r.metrics[0] = "metrics.json";
	r.events[0] = "events.json";
	fz_load_and_use(&r);
	return 0;
}

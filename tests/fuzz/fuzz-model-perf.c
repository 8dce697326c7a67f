/* SPDX-License-Identifier: MIT */
/* libFuzzer: a Linux perf-format metrics file (and events file) through the
 * model loader (metrics/load-perf.c). The first byte of the input chooses
 * the recipe, as the built-in ones read such files: 'A' AMD pipeline.json
 * (perf AMD events), 'E' Intel E-core (Unit cpu_atom, tma_ names), anything
 * else Intel P-core (tma_ names, no Unit); the rest is laid out as in
 * fuzz-model-files.h. */
#include "tests/fuzz/fuzz-model-files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || fz_split(data + 1, size - 1, data[0] == 'A' ? fz_default_events_amd
							       : fz_default_events) < 0)
		return 0;
	struct bt_model_recipe r = { .id = "FUZZ", .vendor = "GenuineIntel", .uarch = "fuzz",
				     .format = BT_FMT_PERF_JSON, .pipeline_width = 4,
				     .name_prefix = "tma_", .cpi_formula =
					"CPU_CLK_UNHALTED.THREAD / INST_RETIRED.ANY" };
	if (data[0] == 'A') {
		r.vendor = "AuthenticAMD";
		r.pipeline_width = 6;
		r.name_prefix = NULL;
		r.cpi_formula = "ls_not_halted_cyc / ex_ret_instr";
	} else if (data[0] == 'E') {
		r.unit = "cpu_atom";
		r.ecore = 1;
		r.pipeline_width = 5;
	}
	r.metrics[0] = "metrics.json";
	r.events[0] = "events.json";
	fz_load_and_use(&r);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Where each built-in model comes from: the vendor files (paths relative to
 * the reference root, ../shared/reference) and how to read them.
 * tools/gen-models turns every recipe into metrics/gen/model-<id>.c; the
 * same recipe, pointed at the same files, is how a model is loaded at run
 * time (tests/unit/metrics/test-model-load.c checks both give identical results).
 * To add a microarchitecture, add a recipe here (see metrics/README.md).
 */
#include <string.h>

#include "metrics/load.h"

#define PERFMON(id_, uarch_, w_, metrics_, ...)                                  \
	{ .id = id_, .vendor = "GenuineIntel", .uarch = uarch_, .format = BT_FMT_PERFMON, \
	  .pipeline_width = w_, .metrics = { metrics_ }, .events = { __VA_ARGS__ } }

const struct bt_model_recipe bt_model_recipes[] = {
	PERFMON("HSW", "Haswell", 4, "intel/HSW/metrics/haswell_metrics.json",
		"intel/HSW/events/haswell_core.json"),
	{ .id = "IVB", .vendor = "GenuineIntel", .uarch = "Ivy Bridge", .format = BT_FMT_PERF_JSON,
	  .pipeline_width = 4, .metrics = { "intel/IVB/perf-format/ivb-metrics.json" },
	  .events = { "intel/IVB/events/ivybridge_core.json" }, .name_prefix = "tma_" },
	PERFMON("SKL", "Skylake (also Kaby/Coffee/Comet Lake)", 4,
		"intel/SKL/metrics/skylake_metrics.json", "intel/SKL/events/skylake_core.json"),
	PERFMON("SKX", "Skylake-SP (also Cascade Lake)", 4, "intel/SKX/metrics/skylakex_metrics.json",
		"intel/SKX/events/skylakex_core.json"),
	PERFMON("ICL", "Ice Lake (client)", 5, "intel/ICL/metrics/icelake_metrics.json",
		"intel/ICL/events/icelake_core.json"),
	PERFMON("TGL", "Tiger Lake", 5, "intel/TGL/metrics/tigerlake_metrics.json",
		"intel/TGL/events/tigerlake_core.json"),
	PERFMON("ICX", "Ice Lake-SP", 5, "intel/ICX/metrics/icelakex_metrics.json",
		"intel/ICX/events/icelakex_core.json"),
	PERFMON("ADL-GLC", "Alder Lake P-core (Golden Cove; also Raptor Lake)", 6,
		"intel/ADL/metrics/alderlake_metrics_goldencove_core.json",
		"intel/ADL/events/alderlake_goldencove_core.json"),
	{ .id = "ADL-GRT", .vendor = "GenuineIntel", .uarch = "Alder Lake E-core (Gracemont)",
	  .format = BT_FMT_PERF_JSON, .pipeline_width = 5, .ecore = 1,
	  .metrics = { "intel/ADL/perf-format/adl-metrics.json" },
	  .events = { "intel/ADL/events/alderlake_gracemont_core.json" }, .unit = "cpu_atom",
	  .name_prefix = "tma_" },
	PERFMON("SPR", "Sapphire Rapids", 6, "intel/SPR/metrics/sapphirerapids_metrics.json",
		"intel/SPR/events/sapphirerapids_core.json"),
	PERFMON("SPR-HBM", "Sapphire Rapids HBM (Xeon Max)", 6,
		"intel/SPR/metrics/sapphirerapidshbm_metrics.json",
		"intel/SPR/events/sapphirerapids_core.json"),
	PERFMON("EMR", "Emerald Rapids", 6, "intel/EMR/metrics/emeraldrapids_metrics.json",
		"intel/EMR/events/emeraldrapids_core.json"),
	{ .id = "GNR", .vendor = "GenuineIntel", .uarch = "Granite Rapids", .format = BT_FMT_PERFMON,
	  .pipeline_width = 6, .metrics = { "intel/GNR/metrics/graniterapids_metrics.json" },
	  .events = { "intel/GNR/events/graniterapids_core.json" } },
	{ .id = "SRF", .vendor = "GenuineIntel", .uarch = "Sierra Forest (Crestmont E-core)",
	  .format = BT_FMT_PERFMON, .pipeline_width = 6, .ecore = 1,
	  .metrics = { "intel/SRF/metrics/sierraforest_metrics.json" },
	  .events = { "intel/SRF/events/sierraforest_core.json" } },
	PERFMON("MTL-RWC", "Meteor Lake P-core (Redwood Cove)", 6,
		"intel/MTL/metrics/meteorlake_metrics_redwoodcove_core.json",
		"intel/MTL/events/meteorlake_redwoodcove_core.json"),
	{ .id = "MTL-CMT", .vendor = "GenuineIntel", .uarch = "Meteor Lake E-core (Crestmont)",
	  .format = BT_FMT_PERF_JSON, .pipeline_width = 6, .ecore = 1,
	  .metrics = { "intel/MTL/perf-format/mtl-metrics.json" },
	  .events = { "intel/MTL/events/meteorlake_crestmont_core.json" }, .unit = "cpu_atom",
	  .name_prefix = "tma_" },
	PERFMON("LNL-LNC", "Lunar Lake P-core (Lion Cove)", 8,
		"intel/LNL/metrics/lunarlake_metrics_lioncove_core.json",
		"intel/LNL/events/lunarlake_lioncove_core.json"),
	{ .id = "LNL-SKT", .vendor = "GenuineIntel", .uarch = "Lunar Lake E-core (Skymont)",
	  .format = BT_FMT_PERF_JSON, .pipeline_width = 8, .ecore = 1,
	  .metrics = { "intel/LNL/perf-format/lnl-metrics.json" },
	  .events = { "intel/LNL/events/lunarlake_skymont_core.json" }, .unit = "cpu_atom",
	  .name_prefix = "tma_" },
	PERFMON("ARL-LNC", "Arrow Lake P-core (Lion Cove)", 8,
		"intel/ARL/metrics/arrowlake_metrics_lioncove_core.json",
		"intel/ARL/events/arrowlake_lioncove_core.json"),
	{ .id = "ARL-SKT", .vendor = "GenuineIntel", .uarch = "Arrow Lake E-core (Skymont)",
	  .format = BT_FMT_PERF_JSON, .pipeline_width = 8, .ecore = 1,
	  .metrics = { "intel/ARL/perf-format/arl-metrics.json" },
	  .events = { "intel/ARL/events/arrowlake_skymont_core.json" }, .unit = "cpu_atom",
	  .name_prefix = "tma_" },
	/* AMD: PipelineL1/L2 plus the core metrics of recommended.json (the
	 * data-fabric and memory-controller metrics need other PMUs). Zen has no
	 * CPI metric: cycles per retired instruction from the core events. */
	{ .id = "ZEN4", .vendor = "AuthenticAMD", .uarch = "Zen 4", .format = BT_FMT_PERF_JSON,
	  .pipeline_width = 6,
	  .metrics = { "amd/amdzen4/pipeline.json", "amd/amdzen4/recommended.json" },
	  .events = { "amd/amdzen4/core.json", "amd/amdzen4/other.json", "amd/amdzen4/branch.json" },
	  .exclude_groups = "data_fabric;memory_controller",
	  .cpi_formula = "ls_not_halted_cyc / ex_ret_instr" },
	{ .id = "ZEN5", .vendor = "AuthenticAMD", .uarch = "Zen 5", .format = BT_FMT_PERF_JSON,
	  .pipeline_width = 8,
	  .metrics = { "amd/amdzen5/pipeline.json", "amd/amdzen5/recommended.json" },
	  .events = { "amd/amdzen5/decode.json", "amd/amdzen5/execution.json",
		      "amd/amdzen5/load-store.json", "amd/amdzen5/branch-prediction.json" },
	  .exclude_groups = "data_fabric;memory_controller",
	  .cpi_formula = "ls_not_halted_cyc / ex_ret_instr" },
};

const unsigned bt_model_recipe_count = sizeof(bt_model_recipes) / sizeof(bt_model_recipes[0]);

const struct bt_model_recipe *bt_recipe_find(const char *id)
{
	for (unsigned i = 0; i < bt_model_recipe_count; i++)
		if (strcmp(bt_model_recipes[i].id, id) == 0)
			return &bt_model_recipes[i];
	return NULL;
}

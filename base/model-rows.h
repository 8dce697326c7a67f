/* SPDX-License-Identifier: MIT */
/*
 * One row per built-in model: every per-model fact the rooms need, once.
 * An X-macro table: this file defines nothing and includes nothing; a room
 * defines BT_MODEL_ROW to take the columns it needs and includes the file
 * inside an initializer, so each room reads the same rows with its own
 * types and none depends on another (the layering of README.md "Layout":
 * the tokens below name a room's enum or symbol only where that room
 * expands them).
 *
 *   BT_MODEL_ROW(id, vendor, name, width, sig, core, uarch, fmt, files, sim, mem, atlas)
 *
 *   id      the model id (metrics/, --model, --sim)
 *   vendor  CPUID vendor string
 *   name    human name of the core
 *   width   issue width (slots per cycle: the IPC bound of metrics/rules.c)
 *   sig     CPUID.01H:EAX of a real part of the model (Intel perfmon
 *           mapfile.csv family-model; reference/cpuid/ where a dump exists):
 *           its display family/model is the model's for pmu/intel-uarch.c
 *           and synth/mem-hierarchy.c, and the simulated CPU's signature
 *   core    core kind on a hybrid part (CPUID.1AH:EAX[31:24]): P (Core,
 *           0x40), E (Atom, 0x20), or NONE (not hybrid)
 *   uarch   core class (pmu/cpu-info.h enum bt_intel_uarch, BT_UARCH_x):
 *           the OFFCORE_RSP and MSR_PEBS_FRONTEND pairing and the
 *           PERF_METRICS fields, which CPUID does not enumerate
 *   fmt     PERFMON or PERF_JSON (metrics/load.h), or HAND: written by hand
 *           in metrics/ (no vendor files, no recipe)
 *   files   the recipe's fields (metrics/load.h struct bt_model_recipe),
 *           paths relative to the reference root (../shared/reference); the
 *           first events file is the one the generated CPUID table matches
 *   sim     the simulated CPU (synth/model-cpus.c): the base preset
 *           (arch/sim/sim-presets.c) and what differs from it
 *   mem     the latency row of synth/mem-hierarchy.c (its name), or NULL:
 *           the first row of the vendor, or the row its family matches
 *   atlas   0, or the rank of the model's core event list among those
 *           built into baretop.efi (tools/gen-atlas, validate/gen/)
 *
 * The rows are in the order of the generated model tables (metrics/gen/).
 * Adding a model: a row here, then regenerate (metrics/README.md).
 */

/* hybrid core kind, CPUID.1AH:EAX[31:24] (SDM vol. 2A, leaf 1AH) */
#define BT_MODEL_CORE_NONE 0
#define BT_MODEL_CORE_P 0x40
#define BT_MODEL_CORE_E 0x20

BT_MODEL_ROW("HSW", "GenuineIntel", "Haswell", 4, 0x000306C3, NONE, WSM_BDW, PERFMON,
	(.metrics = { "intel/HSW/metrics/haswell_metrics.json" },
	 .events = { "intel/HSW/events/haswell_core.json" }),
	("nhm", .family = BT_SIM_FAM_WSM_BDW, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Haswell PMU (perfmon v3)", .part = &bt_sim_part_hsw),
	NULL, 19)
BT_MODEL_ROW("IVB", "GenuineIntel", "Ivy Bridge", 4, 0x000306A9, NONE, WSM_BDW, PERF_JSON,
	(.metrics = { "intel/IVB/perf-format/ivb-metrics.json" },
	 .events = { "intel/IVB/events/ivybridge_core.json" }, .name_prefix = "tma_"),
	("nhm", .family = BT_SIM_FAM_WSM_BDW, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Ivy Bridge PMU (perfmon v3)", .part = &bt_sim_part_ivb),
	NULL, 20)
/* SKL answers as an i7-8700K (Coffee Lake, SMT on: 4 general counters;
 * the i5-6400T dump without SMT has 8) */
BT_MODEL_ROW("SKL", "GenuineIntel", "Skylake (also Kaby/Coffee/Comet Lake)", 4, 0x000906EA,
	NONE, SKL, PERFMON,
	(.metrics = { "intel/SKL/metrics/skylake_metrics.json" },
	 .events = { "intel/SKL/events/skylake_core.json" }),
	("skl", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Skylake PMU (perfmon v4)", .part = &bt_sim_part_cfl),
	"Skylake client", 18)
BT_MODEL_ROW("SKX", "GenuineIntel", "Skylake-SP (also Cascade Lake)", 4, 0x00050654, NONE, SKL,
	PERFMON,
	(.metrics = { "intel/SKX/metrics/skylakex_metrics.json" },
	 .events = { "intel/SKX/events/skylakex_core.json" }),
	("skl", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Skylake-SP PMU (perfmon v4)", .part = &bt_sim_part_skx),
	"Skylake server", 17)
BT_MODEL_ROW("ICL", "GenuineIntel", "Ice Lake (client)", 5, 0x000706E5, NONE, ICL, PERFMON,
	(.metrics = { "intel/ICL/metrics/icelake_metrics.json" },
	 .events = { "intel/ICL/events/icelake_core.json" }),
	("icl", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Ice Lake PMU (perfmon v5, PERF_METRICS)", .part = &bt_sim_part_icl),
	"Sunny Cove client", 15)
BT_MODEL_ROW("TGL", "GenuineIntel", "Tiger Lake", 5, 0x000806C1, NONE, ICL, PERFMON,
	(.metrics = { "intel/TGL/metrics/tigerlake_metrics.json" },
	 .events = { "intel/TGL/events/tigerlake_core.json" }),
	("icl", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Tiger Lake PMU (perfmon v5, PERF_METRICS)",
	 .part = &bt_sim_part_tgl),
	"Willow Cove client", 16)
BT_MODEL_ROW("ICX", "GenuineIntel", "Ice Lake-SP", 5, 0x000606A6, NONE, ICL, PERFMON,
	(.metrics = { "intel/ICX/metrics/icelakex_metrics.json" },
	 .events = { "intel/ICX/events/icelakex_core.json" }),
	("icl", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Ice Lake-SP PMU (perfmon v5, PERF_METRICS)",
	 .part = &bt_sim_part_icx),
	"Sunny Cove server", 14)
BT_MODEL_ROW("ADL-GLC", "GenuineIntel", "Alder Lake P-core (Golden Cove; also Raptor Lake)", 6,
	0x00090672, P, GLC, PERFMON,
	(.metrics = { "intel/ADL/metrics/alderlake_metrics_goldencove_core.json" },
	 .events = { "intel/ADL/events/alderlake_goldencove_core.json" }),
	("adl-p", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Alder Lake P-core PMU (Golden Cove)", .part = &bt_sim_part_adl_p),
	"Golden/Raptor/Redwood Cove client", 12)
BT_MODEL_ROW("ADL-GRT", "GenuineIntel", "Alder Lake E-core (Gracemont)", 5, 0x00090672, E, ATOM,
	PERF_JSON,
	(.ecore = 1, .metrics = { "intel/ADL/perf-format/adl-metrics.json" },
	 .events = { "intel/ADL/events/alderlake_gracemont_core.json" }, .unit = "cpu_atom",
	 .name_prefix = "tma_"),
	("adl-e", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Alder Lake E-core PMU (Gracemont)", .part = &bt_sim_part_adl_e),
	"Atom (Tremont..Skymont)", 13)
BT_MODEL_ROW("SPR", "GenuineIntel", "Sapphire Rapids", 6, 0x000806F8, NONE, GLC, PERFMON,
	(.metrics = { "intel/SPR/metrics/sapphirerapids_metrics.json" },
	 .events = { "intel/SPR/events/sapphirerapids_core.json" }),
	("spr", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Sapphire Rapids PMU (Golden Cove)", .part = &bt_sim_part_spr),
	"Golden/Raptor/Redwood Cove server", 1)
/* SPR-HBM answers as Sapphire Rapids (no Xeon Max dump) */
BT_MODEL_ROW("SPR-HBM", "GenuineIntel", "Sapphire Rapids HBM (Xeon Max)", 6, 0x000806F8, NONE,
	GLC, PERFMON,
	(.metrics = { "intel/SPR/metrics/sapphirerapidshbm_metrics.json" },
	 .events = { "intel/SPR/events/sapphirerapids_core.json" }),
	("spr", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Xeon Max PMU (Golden Cove)", .part = &bt_sim_part_spr),
	"Golden/Raptor/Redwood Cove server", 2)
BT_MODEL_ROW("EMR", "GenuineIntel", "Emerald Rapids", 6, 0x000C06F2, NONE, GLC, PERFMON,
	(.metrics = { "intel/EMR/metrics/emeraldrapids_metrics.json" },
	 .events = { "intel/EMR/events/emeraldrapids_core.json" }),
	("spr", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Emerald Rapids PMU (Raptor Cove)", .part = &bt_sim_part_emr),
	"Golden/Raptor/Redwood Cove server", 3)
BT_MODEL_ROW("GNR", "GenuineIntel", "Granite Rapids", 6, 0x000A06D1, NONE, RWC, PERFMON,
	(.metrics = { "intel/GNR/metrics/graniterapids_metrics.json" },
	 .events = { "intel/GNR/events/graniterapids_core.json" }),
	("spr", .family = BT_SIM_FAM_RWC, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Granite Rapids PMU (Redwood Cove)", .part = &bt_sim_part_gnr,
	 .pebs_timing = true),
	"Golden/Raptor/Redwood Cove server", 4)
/* SRF's CPUID is made up from the fields (no Sierra Forest dump) */
BT_MODEL_ROW("SRF", "GenuineIntel", "Sierra Forest (Crestmont E-core)", 6, 0x000A06F3, NONE,
	ATOM, PERFMON,
	(.ecore = 1, .metrics = { "intel/SRF/metrics/sierraforest_metrics.json" },
	 .events = { "intel/SRF/events/sierraforest_core.json" }),
	("adl-e", .num_gp = 8, .hybrid = 0, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Sierra Forest PMU (Crestmont)", .part = NULL),
	"Atom (Tremont..Skymont)", 11)
BT_MODEL_ROW("MTL-RWC", "GenuineIntel", "Meteor Lake P-core (Redwood Cove)", 6, 0x000A06A4, P,
	RWC, PERFMON,
	(.metrics = { "intel/MTL/metrics/meteorlake_metrics_redwoodcove_core.json" },
	 .events = { "intel/MTL/events/meteorlake_redwoodcove_core.json" }),
	("adl-p", .family = BT_SIM_FAM_RWC, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Meteor Lake P-core PMU (Redwood Cove)", .part = &bt_sim_part_mtl_p,
	 .native_model = 2, .perf_cap_pm_reads_zero = true, .pebs_timing = true),
	"Golden/Raptor/Redwood Cove client", 9)
BT_MODEL_ROW("MTL-CMT", "GenuineIntel", "Meteor Lake E-core (Crestmont)", 6, 0x000A06A4, E, ATOM,
	PERF_JSON,
	(.ecore = 1, .metrics = { "intel/MTL/perf-format/mtl-metrics.json" },
	 .events = { "intel/MTL/events/meteorlake_crestmont_core.json" }, .unit = "cpu_atom",
	 .name_prefix = "tma_"),
	("adl-e", .num_gp = 8, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Meteor Lake E-core PMU (Crestmont)", .part = &bt_sim_part_mtl_e,
	 .native_model = 2),
	"Atom (Tremont..Skymont)", 10)
BT_MODEL_ROW("LNL-LNC", "GenuineIntel", "Lunar Lake P-core (Lion Cove)", 8, 0x000B06D1, P, LNC,
	PERFMON,
	(.metrics = { "intel/LNL/metrics/lunarlake_metrics_lioncove_core.json" },
	 .events = { "intel/LNL/events/lunarlake_lioncove_core.json" }),
	("lnl-p", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Lunar Lake P-core PMU (Lion Cove, perfmon v6)",
	 .part = &bt_sim_part_lnl_p, .pebs_timing = true),
	"Lion Cove", 5)
BT_MODEL_ROW("LNL-SKT", "GenuineIntel", "Lunar Lake E-core (Skymont)", 8, 0x000B06D1, E, ATOM,
	PERF_JSON,
	(.ecore = 1, .metrics = { "intel/LNL/perf-format/lnl-metrics.json" },
	 .events = { "intel/LNL/events/lunarlake_skymont_core.json" }, .unit = "cpu_atom",
	 .name_prefix = "tma_"),
	("lnl-p", .family = BT_SIM_FAM_ATOM, .num_gp = 8, .fixed_bitmap = 0x77, .hybrid = 1,
	 .core_type = BT_CORE_TYPE_ATOM, .perf_metrics = 0,
	 .brand = "baretop sim: Lunar Lake E-core PMU (Skymont, perfmon v6)",
	 .part = &bt_sim_part_lnl_e),
	"Atom (Tremont..Skymont)", 6)
BT_MODEL_ROW("ARL-LNC", "GenuineIntel", "Arrow Lake P-core (Lion Cove)", 8, 0x000C0662, P, LNC,
	PERFMON,
	(.metrics = { "intel/ARL/metrics/arrowlake_metrics_lioncove_core.json" },
	 .events = { "intel/ARL/events/arrowlake_lioncove_core.json" }),
	("lnl-p", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: Arrow Lake P-core PMU (Lion Cove, perfmon v6)",
	 .part = &bt_sim_part_arl_p, .pebs_timing = true),
	"Lion Cove", 7)
BT_MODEL_ROW("ARL-SKT", "GenuineIntel", "Arrow Lake E-core (Skymont)", 8, 0x000C0662, E, ATOM,
	PERF_JSON,
	(.ecore = 1, .metrics = { "intel/ARL/perf-format/arl-metrics.json" },
	 .events = { "intel/ARL/events/arrowlake_skymont_core.json" }, .unit = "cpu_atom",
	 .name_prefix = "tma_"),
	("lnl-p", .family = BT_SIM_FAM_ATOM, .num_gp = 8, .fixed_bitmap = 0x77, .hybrid = 1,
	 .core_type = BT_CORE_TYPE_ATOM, .perf_metrics = 0,
	 .brand = "baretop sim: Arrow Lake E-core PMU (Skymont, perfmon v6)",
	 .part = &bt_sim_part_arl_e),
	"Atom (Tremont..Skymont)", 8)
/* AMD: PipelineL1/L2 plus the core metrics of recommended.json (the
 * data-fabric and memory-controller metrics need other PMUs). Zen has no
 * CPI metric: cycles per retired instruction from the core events. */
BT_MODEL_ROW("ZEN4", "AuthenticAMD", "Zen 4", 6, 0x00A60F12, NONE, UNKNOWN, PERF_JSON,
	(.metrics = { "amd/amdzen4/pipeline.json", "amd/amdzen4/recommended.json" },
	 .events = { "amd/amdzen4/core.json", "amd/amdzen4/other.json", "amd/amdzen4/branch.json" },
	 .exclude_groups = "data_fabric;memory_controller",
	 .cpi_formula = "ls_not_halted_cyc / ex_ret_instr"),
	("zen4", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: AMD Zen 4 PMU (PerfMonV2)", .part = &bt_sim_part_zen4),
	NULL, 0)
BT_MODEL_ROW("ZEN5", "AuthenticAMD", "Zen 5", 8, 0x00B40F40, NONE, UNKNOWN, PERF_JSON,
	(.metrics = { "amd/amdzen5/pipeline.json", "amd/amdzen5/recommended.json" },
	 .events = { "amd/amdzen5/decode.json", "amd/amdzen5/execution.json",
		     "amd/amdzen5/load-store.json", "amd/amdzen5/branch-prediction.json" },
	 .exclude_groups = "data_fabric;memory_controller",
	 .cpi_formula = "ls_not_halted_cyc / ex_ret_instr"),
	("zen4", .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	 .brand = "baretop sim: AMD Zen 5 PMU (PerfMonV2)", .part = &bt_sim_part_zen5),
	NULL, 0)
/* Tremont (TNT), written by hand (metrics/tremont-model.c): Elkhart Lake's
 * CPUID (4 general counters, fixed 0-2, perfmon v5, not hybrid); the rest
 * is the Gracemont E-core preset's, the nearest Atom PMU baretop simulates:
 * Tremont's own IA32_PERF_CAPABILITIES is not in a dump, and no
 * PERF_METRICS. Its name and width are metrics/tremont-model.h's (no room
 * reads them from a HAND row). */
BT_MODEL_ROW("TNT", "GenuineIntel", BT_TNT_MODEL_NAME, BT_TNT_WIDTH, 0x00090661, NONE, ATOM,
	HAND, (),
	("adl-e", .num_gp = 4, .hybrid = 0, .perf_metrics = 0,
	 .brand = "baretop sim: Elkhart Lake PMU (Tremont, perfmon v5)", .part = &bt_sim_part_ehl),
	"Atom (Tremont..Skymont)", 0)

#undef BT_MODEL_ROW

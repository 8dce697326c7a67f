/* SPDX-License-Identifier: MIT */
/*
 * A simulated CPU for each built-in Top-Down model, so that a model's
 * events can be planned for, and counted through, the PMU of its own
 * microarchitecture without that hardware:
 *
 *   - the signature is a real part's (Intel perfmon mapfile.csv: 6-3A IVB,
 *     6-3C HSW, 6-5E SKL, 6-55 SKX, 6-7E ICL, 6-8C TGL, 6-6A ICX, 6-97 ADL,
 *     6-8F SPR, 6-CF EMR, 6-AD GNR, 6-AF SRF, 6-AA MTL, 6-BD LNL, 6-C6 ARL,
 *     6-96 Elkhart Lake for TNT;
 *     AMD family 19h model 61h Zen 4, family 1Ah model 44h Zen 5), so the
 *     driver derives the right core class from it;
 *   - the general and fixed counters are those Intel's event files use for
 *     that core ("Counter": the highest general counter any event may use,
 *     and the "Fixed counter N" that appear): 4 general (8 with SMT off)
 *     on IVB..SKX, 8 on ICL..GNR and on Crestmont, 10 on Lion Cove, 6 on
 *     Gracemont, 8 on Skymont with fixed counters 0-2 and 4-6, 4 on
 *     Tremont;
 *   - the rest comes from the preset of the same PMU generation;
 *   - CPUID is answered as a real part of that model answered it
 *     (.part, arch/sim/sim-parts.c; the brand string excepted), so detection
 *     meets what it will meet on silicon, e.g. the hybrid Alder Lake
 *     P-core's CPUID.0AH with only the 6 general and 3 fixed counters both
 *     core types have. SKL answers as an i7-8700K (Coffee Lake, SMT on: 4
 *     general counters; the i5-6400T dump without SMT has 8); SPR-HBM as
 *     Sapphire Rapids (no Xeon Max dump); SRF's CPUID is made up from the
 *     fields (no Sierra Forest dump).
 * IA32_PERF_CAPABILITIES is the preset's; for Meteor Lake bit 15 reads 0
 * although PERF_METRICS exists (Linux intel_pmu_broken_perf_cap(): "The
 * Perf Metric (Bit 15) is always cleared"). What the other hybrid parts'
 * bit 15 reads is not publicly known (Linux does not read it on Alder /
 * Raptor Lake, see pmu/pmu-caps.c): the presets set it where the core has
 * PERF_METRICS.
 * It is a model of the PMU's programming interface, not of the part:
 * everything counted through it is labelled simulated.
 */
#include <stdio.h>
#include <string.h>

#include "synth/count-sources.h"

/* A row names only what differs from its base preset. A field left out is
 * 0, which means "the base's" for every field but hybrid and perf_metrics:
 * there 0 means "no", and "the base's" is FROM_BASE (-1), which every row
 * therefore writes out. */
struct model_sim {
	const char *model;        /* built-in model id (metrics/) */
	const char *base;         /* preset it starts from */
	uint32_t signature;
	uint8_t family;           /* enum bt_sim_family; 0 = the base's */
	uint8_t num_gp;           /* 0 = the base's */
	uint32_t fixed_bitmap;    /* CPUID.0AH:ECX; 0 = the base's */
	int8_t hybrid;            /* FROM_BASE, 0 or 1 */
	uint8_t core_type;        /* with hybrid 0/1: 0 = the base's */
	int8_t perf_metrics;      /* FROM_BASE, 0 or 1 */
	uint8_t version;          /* 0 = the base's */
	const char *brand;
	/* The real part whose CPUID it answers (arch/sim/sim-parts.c); NULL:
	 * CPUID made up from the fields (SRF: no Sierra Forest dump). */
	const struct bt_sim_cpuid_part *part;
	uint32_t native_model;    /* CPUID.1AH:EAX[23:0]; 0 = the base's */
	bool perf_cap_pm_reads_zero; /* see struct bt_sim_config; false = the base's */
	/* timed PEBS (PERF_CAPABILITIES[17], Linux "perf/x86: Support Retire
	 * Latency"): the P-cores of Granite Rapids, Meteor, Lunar and Arrow
	 * Lake; set per row, never taken from the base (an E-core row on a
	 * P-core base has none) */
	bool pebs_timing;
};

#define FROM_BASE (-1)

static const struct model_sim table[] = {
	{ .model = "IVB", .base = "nhm", .signature = 0x000306A9,
	  .family = BT_SIM_FAM_WSM_BDW, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Ivy Bridge PMU (perfmon v3)",
	  .part = &bt_sim_part_ivb },
	{ .model = "HSW", .base = "nhm", .signature = 0x000306C3,
	  .family = BT_SIM_FAM_WSM_BDW, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Haswell PMU (perfmon v3)",
	  .part = &bt_sim_part_hsw },
	{ .model = "SKL", .base = "skl", .signature = 0x000906EA,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Skylake PMU (perfmon v4)",
	  .part = &bt_sim_part_cfl },
	{ .model = "SKX", .base = "skl", .signature = 0x00050654,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Skylake-SP PMU (perfmon v4)",
	  .part = &bt_sim_part_skx },
	{ .model = "ICL", .base = "icl", .signature = 0x000706E5,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Ice Lake PMU (perfmon v5, PERF_METRICS)",
	  .part = &bt_sim_part_icl },
	{ .model = "TGL", .base = "icl", .signature = 0x000806C1,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Tiger Lake PMU (perfmon v5, PERF_METRICS)",
	  .part = &bt_sim_part_tgl },
	{ .model = "ICX", .base = "icl", .signature = 0x000606A6,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Ice Lake-SP PMU (perfmon v5, PERF_METRICS)",
	  .part = &bt_sim_part_icx },
	{ .model = "ADL-GLC", .base = "adl-p", .signature = 0x00090672,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Alder Lake P-core PMU (Golden Cove)",
	  .part = &bt_sim_part_adl_p },
	{ .model = "ADL-GRT", .base = "adl-e", .signature = 0x00090672,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Alder Lake E-core PMU (Gracemont)",
	  .part = &bt_sim_part_adl_e },
	/* Tremont (TNT): Elkhart Lake's CPUID (4 general counters, fixed 0-2,
	 * perfmon v5, not hybrid); the rest is the Gracemont E-core preset's,
	 * the nearest Atom PMU baretop simulates: Tremont's own
	 * IA32_PERF_CAPABILITIES is not in a dump, and no PERF_METRICS. */
	{ .model = "TNT", .base = "adl-e", .signature = 0x00090661,
	  .num_gp = 4, .hybrid = 0, .perf_metrics = 0,
	  .brand = "baretop sim: Elkhart Lake PMU (Tremont, perfmon v5)",
	  .part = &bt_sim_part_ehl },
	{ .model = "SPR", .base = "spr", .signature = 0x000806F8,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Sapphire Rapids PMU (Golden Cove)",
	  .part = &bt_sim_part_spr },
	{ .model = "SPR-HBM", .base = "spr", .signature = 0x000806F8,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Xeon Max PMU (Golden Cove)",
	  .part = &bt_sim_part_spr },
	{ .model = "EMR", .base = "spr", .signature = 0x000C06F2,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Emerald Rapids PMU (Raptor Cove)",
	  .part = &bt_sim_part_emr },
	{ .model = "GNR", .base = "spr", .signature = 0x000A06D1,
	  .family = BT_SIM_FAM_RWC, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Granite Rapids PMU (Redwood Cove)",
	  .part = &bt_sim_part_gnr, .pebs_timing = true },
	{ .model = "SRF", .base = "adl-e", .signature = 0x000A06F3,
	  .num_gp = 8, .hybrid = 0, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Sierra Forest PMU (Crestmont)",
	  .part = NULL },
	{ .model = "MTL-RWC", .base = "adl-p", .signature = 0x000A06A4,
	  .family = BT_SIM_FAM_RWC, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Meteor Lake P-core PMU (Redwood Cove)",
	  .part = &bt_sim_part_mtl_p, .native_model = 2, .perf_cap_pm_reads_zero = true,
	  .pebs_timing = true },
	{ .model = "MTL-CMT", .base = "adl-e", .signature = 0x000A06A4,
	  .num_gp = 8, .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Meteor Lake E-core PMU (Crestmont)",
	  .part = &bt_sim_part_mtl_e, .native_model = 2 },
	{ .model = "LNL-LNC", .base = "lnl-p", .signature = 0x000B06D1,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Lunar Lake P-core PMU (Lion Cove, perfmon v6)",
	  .part = &bt_sim_part_lnl_p, .pebs_timing = true },
	{ .model = "ARL-LNC", .base = "lnl-p", .signature = 0x000C0662,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: Arrow Lake P-core PMU (Lion Cove, perfmon v6)",
	  .part = &bt_sim_part_arl_p, .pebs_timing = true },
	{ .model = "LNL-SKT", .base = "lnl-p", .signature = 0x000B06D1,
	  .family = BT_SIM_FAM_ATOM, .num_gp = 8, .fixed_bitmap = 0x77,
	  .hybrid = 1, .core_type = BT_CORE_TYPE_ATOM, .perf_metrics = 0,
	  .brand = "baretop sim: Lunar Lake E-core PMU (Skymont, perfmon v6)",
	  .part = &bt_sim_part_lnl_e },
	{ .model = "ARL-SKT", .base = "lnl-p", .signature = 0x000C0662,
	  .family = BT_SIM_FAM_ATOM, .num_gp = 8, .fixed_bitmap = 0x77,
	  .hybrid = 1, .core_type = BT_CORE_TYPE_ATOM, .perf_metrics = 0,
	  .brand = "baretop sim: Arrow Lake E-core PMU (Skymont, perfmon v6)",
	  .part = &bt_sim_part_arl_e },
	{ .model = "ZEN4", .base = "zen4", .signature = 0x00A60F12,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: AMD Zen 4 PMU (PerfMonV2)",
	  .part = &bt_sim_part_zen4 },
	{ .model = "ZEN5", .base = "zen4", .signature = 0x00B40F40,
	  .hybrid = FROM_BASE, .perf_metrics = FROM_BASE,
	  .brand = "baretop sim: AMD Zen 5 PMU (PerfMonV2)",
	  .part = &bt_sim_part_zen5 },
};

bool bt_sim_config_for_model(const char *model, struct bt_sim_config *ret)
{
	for (size_t i = 0; model && i < sizeof(table) / sizeof(table[0]); i++) {
		const struct model_sim *m = &table[i];
		const struct bt_sim_config *base;

		if (strcmp(m->model, model) != 0)
			continue;
		base = bt_sim_preset(m->base);
		if (!base)
			return false;
		*ret = *base;
		ret->name = m->model;
		ret->brand = m->brand;
		ret->signature = m->signature;
		if (m->family)
			ret->family = (enum bt_sim_family)m->family;
		if (m->num_gp)
			ret->num_gp = m->num_gp;
		if (m->fixed_bitmap) {
			ret->fixed_bitmap = m->fixed_bitmap;
			/* CPUID.0AH:EDX[4:0] counts the contiguous ones (0-2); the
			 * bitmap in ECX adds the others (perfmon v5+). */
			uint8_t contiguous = 0;
			while (contiguous < 8 && (m->fixed_bitmap & (1u << contiguous)))
				contiguous++;
			ret->num_fixed = contiguous;
		}
		if (m->hybrid >= 0) {
			ret->hybrid = m->hybrid;
			if (m->core_type)
				ret->core_type = m->core_type;
		}
		if (m->perf_metrics >= 0) {
			ret->perf_metrics = m->perf_metrics;
			if (!m->perf_metrics) {
				ret->pm_fields = 0;
				ret->frontend = false; /* E-cores have no MSR_PEBS_FRONTEND */
			}
		}
		if (m->version)
			ret->version = m->version;
		ret->part = m->part;
		if (m->native_model)
			ret->native_model = m->native_model;
		if (m->perf_cap_pm_reads_zero)
			ret->perf_cap_pm_reads_zero = true;
		ret->pebs_timing = m->pebs_timing;
		return true;
	}
	return false;
}

const char *const bt_sim_model_names[] = {
	"IVB", "HSW", "SKL", "SKX", "ICL", "TGL", "ICX", "ADL-GLC", "ADL-GRT", "SPR", "SPR-HBM",
	"EMR", "GNR", "SRF", "MTL-RWC", "MTL-CMT", "LNL-LNC", "ARL-LNC", "LNL-SKT", "ARL-SKT",
	"TNT", "ZEN4", "ZEN5", NULL,
};

void bt_sim_diag_unknown(struct bt_diag *d, const char *name)
{
	char model_list[BT_DIAG_MAX] = "", preset_list[BT_DIAG_MAX] = "";
	size_t n = 0;
	for (int k = 0; bt_sim_model_names[k] && n < sizeof(model_list); k++)
		n += (size_t)snprintf(model_list + n, sizeof(model_list) - n, " %s",
				      bt_sim_model_names[k]);
	n = 0;
	for (int k = 0; bt_sim_preset_names[k] && n < sizeof(preset_list); k++)
		n += (size_t)snprintf(preset_list + n, sizeof(preset_list) - n, " %s",
				      bt_sim_preset_names[k]);
	bt_diag_set(d, "--sim=%s: no such simulated PMU; models:%s; presets:%s", name, model_list,
		    preset_list);
}

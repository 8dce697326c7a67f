/* SPDX-License-Identifier: MIT */
/*
 * A simulated CPU for each built-in Top-Down model, so that a model's
 * events can be planned for, and counted through, the PMU of its own
 * microarchitecture without that hardware:
 *
 *   - the signature is a real part's (Intel perfmon mapfile.csv: 6-3A IVB,
 *     6-3C HSW, 6-5E SKL, 6-55 SKX, 6-7E ICL, 6-8C TGL, 6-6A ICX, 6-97 ADL,
 *     6-8F SPR, 6-CF EMR, 6-AD GNR, 6-AF SRF, 6-AA MTL, 6-BD LNL, 6-C6 ARL;
 *     AMD family 19h model 61h Zen 4, family 1Ah model 44h Zen 5), so the
 *     driver derives the right core class from it;
 *   - the general and fixed counters are those Intel's event files use for
 *     that core ("Counter": the highest general counter any event may use,
 *     and the "Fixed counter N" that appear): 4 general (8 with SMT off)
 *     on IVB..SKX, 8 on ICL..GNR and on Crestmont, 10 on Lion Cove, 6 on
 *     Gracemont, 8 on Skymont with fixed counters 0-2 and 4-6;
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
#include <string.h>

#include "arch/sim/sim.h"

struct model_sim {
	const char *model;        /* built-in model id (metrics/) */
	const char *base;         /* preset it starts from */
	uint32_t signature;
	uint8_t family;           /* enum bt_sim_family; 0 = the base's */
	uint8_t num_gp;           /* 0 = the base's */
	uint32_t fixed_bitmap;    /* CPUID.0AH:ECX; 0 = the base's */
	uint8_t unused;
	int8_t hybrid;            /* -1 = the base's, 0/1 */
	uint8_t core_type;
	int8_t perf_metrics;      /* -1 = the base's, 0/1 */
	uint8_t version;          /* 0 = the base's */
	const char *brand;
	/* The real part whose CPUID it answers (arch/sim/sim-parts.c); NULL =
	 * the base's, which for SRF is made up: no Sierra Forest dump. */
	const struct bt_sim_cpuid_part *part;
	uint32_t native_model;    /* CPUID.1AH:EAX[23:0]; 0 = the base's */
	bool perf_cap_pm_reads_zero; /* see struct bt_sim_config */
};

static const struct model_sim table[] = {
	{ "IVB", "nhm", 0x000306A9, BT_SIM_FAM_WSM_BDW, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Ivy Bridge PMU (perfmon v3)", .part = &bt_sim_part_ivb },
	{ "HSW", "nhm", 0x000306C3, BT_SIM_FAM_WSM_BDW, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Haswell PMU (perfmon v3)", .part = &bt_sim_part_hsw },
	{ "SKL", "skl", 0x000906EA, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Skylake PMU (perfmon v4)", .part = &bt_sim_part_cfl },
	{ "SKX", "skl", 0x00050654, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Skylake-SP PMU (perfmon v4)", .part = &bt_sim_part_skx },
	{ "ICL", "icl", 0x000706E5, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Ice Lake PMU (perfmon v5, PERF_METRICS)", .part = &bt_sim_part_icl },
	{ "TGL", "icl", 0x000806C1, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Tiger Lake PMU (perfmon v5, PERF_METRICS)", .part = &bt_sim_part_tgl },
	{ "ICX", "icl", 0x000606A6, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Ice Lake-SP PMU (perfmon v5, PERF_METRICS)", .part = &bt_sim_part_icx },
	{ "ADL-GLC", "adl-p", 0x00090672, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Alder Lake P-core PMU (Golden Cove)", .part = &bt_sim_part_adl_p },
	{ "ADL-GRT", "adl-e", 0x00090672, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Alder Lake E-core PMU (Gracemont)", .part = &bt_sim_part_adl_e },
	{ "SPR", "spr", 0x000806F8, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Sapphire Rapids PMU (Golden Cove)", .part = &bt_sim_part_spr },
	{ "SPR-HBM", "spr", 0x000806F8, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Xeon Max PMU (Golden Cove)", .part = &bt_sim_part_spr },
	{ "EMR", "spr", 0x000C06F2, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Emerald Rapids PMU (Raptor Cove)", .part = &bt_sim_part_emr },
	{ "GNR", "spr", 0x000A06D1, BT_SIM_FAM_RWC, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Granite Rapids PMU (Redwood Cove)", .part = &bt_sim_part_gnr },
	{ "SRF", "adl-e", 0x000A06F3, 0, 8, 0, 0, 0, 0, -1, 0,
	  "baretop sim: Sierra Forest PMU (Crestmont)", .part = NULL },
	{ "MTL-RWC", "adl-p", 0x000A06A4, BT_SIM_FAM_RWC, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Meteor Lake P-core PMU (Redwood Cove)", .part = &bt_sim_part_mtl_p,
	  .native_model = 2, .perf_cap_pm_reads_zero = true },
	{ "MTL-CMT", "adl-e", 0x000A06A4, 0, 8, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Meteor Lake E-core PMU (Crestmont)", .part = &bt_sim_part_mtl_e,
	  .native_model = 2 },
	{ "LNL-LNC", "lnl-p", 0x000B06D1, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Lunar Lake P-core PMU (Lion Cove, perfmon v6)", .part = &bt_sim_part_lnl_p },
	{ "ARL-LNC", "lnl-p", 0x000C0662, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: Arrow Lake P-core PMU (Lion Cove, perfmon v6)", .part = &bt_sim_part_arl_p },
	{ "LNL-SKT", "lnl-p", 0x000B06D1, BT_SIM_FAM_ATOM, 8, 0x77, 7, 1, BT_CORE_TYPE_ATOM, 0, 0,
	  "baretop sim: Lunar Lake E-core PMU (Skymont, perfmon v6)", .part = &bt_sim_part_lnl_e },
	{ "ARL-SKT", "lnl-p", 0x000C0662, BT_SIM_FAM_ATOM, 8, 0x77, 7, 1, BT_CORE_TYPE_ATOM, 0, 0,
	  "baretop sim: Arrow Lake E-core PMU (Skymont, perfmon v6)", .part = &bt_sim_part_arl_e },
	{ "ZEN4", "zen4", 0x00A60F12, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: AMD Zen 4 PMU (PerfMonV2)", .part = &bt_sim_part_zen4 },
	{ "ZEN5", "zen4", 0x00B40F40, 0, 0, 0, 0, -1, 0, -1, 0,
	  "baretop sim: AMD Zen 5 PMU (PerfMonV2)", .part = &bt_sim_part_zen5 },
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
		return true;
	}
	return false;
}

const char *const bt_sim_model_names[] = {
	"IVB", "HSW", "SKL", "SKX", "ICL", "TGL", "ICX", "ADL-GLC", "ADL-GRT", "SPR", "SPR-HBM",
	"EMR", "GNR", "SRF", "MTL-RWC", "MTL-CMT", "LNL-LNC", "ARL-LNC", "LNL-SKT", "ARL-SKT",
	"ZEN4", "ZEN5", NULL,
};

/* SPDX-License-Identifier: MIT */
#include "metrics/lineage.h"
#include "base/array.h"

#include <stddef.h>
#include <string.h>

#include "metrics/select.h"

/*
 * Sources: Linux arch/x86/include/asm/intel-family.h, whose comments name
 * the core of each model (INTEL_BARTLETTLAKE IFM(6, 0xD7): "Raptor Cove"), and
 * arch/x86/events/intel/core.c intel_pmu_init(), which gives each core its
 * PMU. A row with model_id applies that model: it is the same core, only in
 * another package. A row with only `nearest` is a new core: the suggestion
 * is its closest ancestor with a published model.
 */
static const struct bt_core_lineage rows[] = {
	/* INTEL_BARTLETTLAKE IFM(6, 0xD7) "Raptor Cove": Raptor Lake's
	 * P-core, whose published model is ADL-GLC (mapfile 6-B7 core type
	 * 40H). P-cores only. */
	{ "GenuineIntel", 6, 0xD7, 0, 0, "Bartlett Lake", "Raptor Cove", "ADL-GLC", NULL,
	  "Linux intel-family.h INTEL_BARTLETTLAKE" },
	/* INTEL_ARROWLAKE_H IFM(6, 0xC5): its third kind of core (core type
	 * 20H, native model ID 2, the low-power E-cores) is Crestmont: Linux
	 * intel_pmu_init() gives that PMU intel_cmt_extra_regs, and Intel's
	 * mapfile names an arrowlake crestmont event file for it. Meteor
	 * Lake's E-core is the same Crestmont: MTL-CMT. */
	{ "GenuineIntel", 6, 0xC5, 0x20, 2, "Arrow Lake H (LP E-core)", "Crestmont", "MTL-CMT",
	  NULL, "Linux intel_pmu_init() INTEL_ARROWLAKE_H, tiny PMU" },
	/* INTEL_PANTHERLAKE_L IFM(6, 0xCC) "Cougar Cove / Darkmont", and
	 * INTEL_WILDCATLAKE_L IFM(6, 0xD5), which Linux treats as Panther
	 * Lake (intel_pmu_init(): same case). New cores: Lion Cove and
	 * Skymont are the nearest with published models. */
	{ "GenuineIntel", 6, 0xCC, 0x40, 0, "Panther Lake", "Cougar Cove", NULL, "LNL-LNC",
	  "Linux intel-family.h INTEL_PANTHERLAKE_L" },
	{ "GenuineIntel", 6, 0xCC, 0x20, 0, "Panther Lake", "Darkmont", NULL, "LNL-SKT",
	  "Linux intel-family.h INTEL_PANTHERLAKE_L" },
	{ "GenuineIntel", 6, 0xD5, 0x40, 0, "Wildcat Lake", "Cougar Cove", NULL, "LNL-LNC",
	  "Linux intel_pmu_init(): INTEL_WILDCATLAKE_L as INTEL_PANTHERLAKE_L" },
	{ "GenuineIntel", 6, 0xD5, 0x20, 0, "Wildcat Lake", "Darkmont", NULL, "LNL-SKT",
	  "Linux intel_pmu_init(): INTEL_WILDCATLAKE_L as INTEL_PANTHERLAKE_L" },
	/* INTEL_DIAMONDRAPIDS_X IFM(19, 0x01) "Panther Cove": family 19, a
	 * P-core after Cougar Cove. */
	{ "GenuineIntel", 19, 0x01, 0, 0, "Diamond Rapids", "Panther Cove", NULL, "LNL-LNC",
	  "Linux intel-family.h INTEL_DIAMONDRAPIDS_X" },
	/* INTEL_NOVALAKE(_L) IFM(18, 0x01 / 0x03) "Coyote Cove / Arctic Wolf". */
	{ "GenuineIntel", 18, 0x01, 0x40, 0, "Nova Lake", "Coyote Cove", NULL, "LNL-LNC",
	  "Linux intel-family.h INTEL_NOVALAKE" },
	{ "GenuineIntel", 18, 0x01, 0x20, 0, "Nova Lake", "Arctic Wolf", NULL, "LNL-SKT",
	  "Linux intel-family.h INTEL_NOVALAKE" },
	{ "GenuineIntel", 18, 0x03, 0x40, 0, "Nova Lake", "Coyote Cove", NULL, "LNL-LNC",
	  "Linux intel-family.h INTEL_NOVALAKE_L" },
	{ "GenuineIntel", 18, 0x03, 0x20, 0, "Nova Lake", "Arctic Wolf", NULL, "LNL-SKT",
	  "Linux intel-family.h INTEL_NOVALAKE_L" },
	/* INTEL_ATOM_DARKMONT_X IFM(6, 0xDD) "Clearwater Forest". */
	{ "GenuineIntel", 6, 0xDD, 0, 0, "Clearwater Forest", "Darkmont", NULL, "SRF",
	  "Linux intel-family.h INTEL_ATOM_DARKMONT_X" },
	/* INTEL_ATOM_TREMONT IFM(6, 0x96) "Elkhart Lake", _L 0x9C "Jasper
	 * Lake", _D 0x86 "Jacobsville" (Snow Ridge): Tremont, which Linux
	 * intel_pmu_init() gives its own Top-Down events (tnt_events_attrs).
	 * No published model exists for it: TNT, level 1 from those events
	 * (metrics/tremont-model.c). Gracemont, which followed Tremont, is
	 * the nearest published model. */
	{ "GenuineIntel", 6, 0x96, 0, 0, "Elkhart Lake", "Tremont", "TNT", "ADL-GRT",
	  "Linux intel-family.h INTEL_ATOM_TREMONT" },
	{ "GenuineIntel", 6, 0x9C, 0, 0, "Jasper Lake", "Tremont", "TNT", "ADL-GRT",
	  "Linux intel-family.h INTEL_ATOM_TREMONT_L" },
	{ "GenuineIntel", 6, 0x86, 0, 0, "Snow Ridge", "Tremont", "TNT", "ADL-GRT",
	  "Linux intel-family.h INTEL_ATOM_TREMONT_D" },
};

const struct bt_core_lineage *bt_core_lineage_of(const struct bt_cpu_facts *cpu)
{
	if (!cpu || !cpu->vendor)
		return NULL;
	for (size_t i = 0; i < BT_ARRAY_SIZE(rows); i++) {
		const struct bt_core_lineage *r = &rows[i];
		if (strcmp(r->vendor, cpu->vendor) || r->family != cpu->family ||
		    r->model != cpu->model)
			continue;
		if (r->core_type && r->core_type != cpu->core_type)
			continue;
		if (r->native_model && r->native_model != cpu->native_model)
			continue;
		return r;
	}
	return NULL;
}

const char *bt_model_suggest(const struct bt_cpu_facts *cpu, const char **why)
{
	const struct bt_core_lineage *r = bt_core_lineage_of(cpu);
	*why = NULL;
	if (r) {
		*why = r->core;
		return r->model_id ? r->model_id : r->nearest;
	}
	/* A hybrid core no row names: the newest published model of its
	 * kind of core, by core type alone. */
	if (cpu && cpu->vendor && strcmp(cpu->vendor, "GenuineIntel") == 0) {
		if (cpu->core_type == 0x40) {
			*why = "an unnamed P-core";
			return "LNL-LNC";
		}
		if (cpu->core_type == 0x20) {
			*why = "an unnamed E-core";
			return "LNL-SKT";
		}
	}
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/*
 * A simulated CPU for each built-in Top-Down model (the sim column of its
 * row in base/model-rows.h), so that a model's
 * events can be planned for, and counted through, the PMU of its own
 * microarchitecture without that hardware:
 *
 *   - the signature is a real part's (the row's sig in base/model-rows.h:
 *     Intel perfmon mapfile.csv, reference/cpuid/), so the
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
 *     core types have (the rows say where a model answers as another
 *     part, or as none).
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
#include "base/array.h"

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

#define BT_UNPAREN(...) __VA_ARGS__
#define BT_MODEL_ROW(id_, vendor_, name_, w_, sig_, core_, uarch_, fmt_, files_, sim_, mem_,  \
		     atlas_)                                                               \
	{ .model = id_, .signature = sig_, .base = BT_UNPAREN sim_ },

static const struct model_sim table[] = {
#include "base/model-rows.h"
};

bool bt_sim_config_for_model(const char *model, struct bt_sim_config *ret)
{
	for (size_t i = 0; model && i < BT_ARRAY_SIZE(table); i++) {
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

#define BT_MODEL_ROW(id_, ...) id_,
const char *const bt_sim_model_names[] = {
#include "base/model-rows.h"
	NULL,
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

/* SPDX-License-Identifier: MIT */
/*
 * Intel family 6 display models -> core microarchitecture class.
 *
 * Sources (facts only): Intel's perfmon mapfile.csv (family-model -> event
 * file, which names the core: e.g. 6-8F sapphirerapids_core, 6-97 hybrid
 * 0x40 goldencove / 0x20 gracemont, 6-AA redwoodcove / crestmont, 6-BD
 * lioncove / skymont, 6-AD graniterapids = Redwood Cove), and Linux
 * arch/x86/include/asm/intel-family.h + intel_pmu_init() for the parts the
 * mapfile no longer lists (Core 2) or lists no file for yet: Bartlett
 * Lake 6-D7 (intel-family.h INTEL_BARTLETTLAKE, "Raptor Cove": the Raptor
 * Lake P-core, Golden Cove class), Panther Lake 6-CC and Wildcat Lake 6-D5
 * (intel_pmu_init(): INTEL_PANTHERLAKE_L and INTEL_WILDCATLAKE_L take
 * Lunar Lake's path, lnl_common: intel_pmu_init_lnc() on the P-core with
 * Lion Cove's extra registers, intel_pmu_init_skt() on the E-core). Models
 * that are in neither, or whose core's OFFCORE_RSP pairing could not be
 * checked (e.g. Clearwater Forest 6-DD, family 18 Nova Lake, family 19
 * Diamond Rapids), are UNKNOWN on purpose: no family but 6 is assumed.
 */
#include "pmu/intel-uarch.h"
#include "base/array.h"

#include <stddef.h>

/* The built-in models' parts (base/model-rows.h): the display model of the
 * row's signature, its hybrid core kind and class. The tables below hold
 * the other parts. */
#define BT_MODEL_ROW(id_, vendor_, name_, w_, sig_, core_, uarch_, ...)                   \
	{ sig_, BT_MODEL_CORE_##core_, BT_UARCH_##uarch_ },
static const struct {
	uint32_t sig;
	uint8_t core; /* 0: not hybrid */
	uint8_t uarch;
} model_rows[] = {
#include "base/model-rows.h"
};

static const struct {
	uint8_t model;
	uint8_t uarch;
} plain[] = {
	/* Core 2 (Merom, Merom-L, Penryn, Dunnington) */
	{ 0x0F, BT_UARCH_CORE2 }, { 0x16, BT_UARCH_CORE2 }, { 0x17, BT_UARCH_CORE2 },
	{ 0x1D, BT_UARCH_CORE2 },
	/* Nehalem EP/client/G/EX */
	{ 0x1A, BT_UARCH_NHM }, { 0x1E, BT_UARCH_NHM }, { 0x1F, BT_UARCH_NHM },
	{ 0x2E, BT_UARCH_NHM },
	/* Westmere (client, EP, EX) */
	{ 0x25, BT_UARCH_WSM }, { 0x2C, BT_UARCH_WSM }, { 0x2F, BT_UARCH_WSM },
	/* Sandy Bridge, Ivy Bridge, Haswell, Broadwell (IVB 3A and HSW 3C:
	 * their model rows) */
	{ 0x2A, BT_UARCH_WSM_BDW }, { 0x2D, BT_UARCH_WSM_BDW },
	{ 0x3E, BT_UARCH_WSM_BDW }, { 0x3F, BT_UARCH_WSM_BDW },
	{ 0x45, BT_UARCH_WSM_BDW }, { 0x46, BT_UARCH_WSM_BDW }, { 0x3D, BT_UARCH_WSM_BDW },
	{ 0x47, BT_UARCH_WSM_BDW }, { 0x4F, BT_UARCH_WSM_BDW }, { 0x56, BT_UARCH_WSM_BDW },
	/* Skylake, Kaby/Coffee/Comet Lake (9E: SKL's row); Skylake-X /
	 * Cascade Lake: 55, SKX's row */
	{ 0x4E, BT_UARCH_SKL }, { 0x5E, BT_UARCH_SKL }, { 0x8E, BT_UARCH_SKL },
	{ 0xA5, BT_UARCH_SKL }, { 0xA6, BT_UARCH_SKL },
	/* Ice Lake client/server, Tiger Lake, Rocket Lake (ICL 7E, ICX 6A,
	 * TGL 8C: their rows) */
	{ 0x7D, BT_UARCH_ICL }, { 0x6C, BT_UARCH_ICL }, { 0x8D, BT_UARCH_ICL },
	{ 0xA7, BT_UARCH_ICL },
	/* Bartlett Lake: Raptor Cove P-cores only (Sapphire Rapids 8F and
	 * Emerald Rapids CF, Golden Cove: their rows) */
	{ 0xD7, BT_UARCH_GLC },
	/* Granite Rapids D (Redwood Cove; Granite Rapids AD: GNR's row) */
	{ 0xAE, BT_UARCH_RWC },
	/* Atom cores: Silvermont/Airmont, Goldmont, Goldmont Plus, Tremont,
	 * Knights Landing/Mill, Gracemont (ADL-N), Crestmont (GRR; Elkhart
	 * Lake 96 and Sierra Forest AF: the TNT and SRF rows) */
	{ 0x37, BT_UARCH_ATOM }, { 0x4A, BT_UARCH_ATOM }, { 0x4D, BT_UARCH_ATOM },
	{ 0x4C, BT_UARCH_ATOM }, { 0x5A, BT_UARCH_ATOM }, { 0x5C, BT_UARCH_ATOM },
	{ 0x5F, BT_UARCH_ATOM }, { 0x7A, BT_UARCH_ATOM }, { 0x86, BT_UARCH_ATOM },
	{ 0x9C, BT_UARCH_ATOM }, { 0x57, BT_UARCH_ATOM },
	{ 0x85, BT_UARCH_ATOM }, { 0xBE, BT_UARCH_ATOM },
	{ 0xB6, BT_UARCH_ATOM },
};

/* Hybrid parts: the P-core class; E-cores (core type 0x20) are ATOM. */
static const struct {
	uint8_t model;
	uint8_t p_core;
} hybrid[] = {
	/* Alder Lake, Raptor Lake: Golden Cove / Raptor Cove + Gracemont (97:
	 * the ADL rows) */
	{ 0x9A, BT_UARCH_GLC }, { 0xB7, BT_UARCH_GLC },
	{ 0xBA, BT_UARCH_GLC }, { 0xBF, BT_UARCH_GLC },
	/* Meteor Lake: Redwood Cove + Crestmont (AA: the MTL rows) */
	{ 0xAC, BT_UARCH_RWC }, { 0xB5, BT_UARCH_RWC },
	/* Lunar Lake, Arrow Lake: Lion Cove + Skymont (ARL also Crestmont;
	 * BD and C6: the LNL and ARL rows) */
	{ 0xC5, BT_UARCH_LNC },
	/* Panther Lake, Wildcat Lake: Cougar Cove + Darkmont, Lion Cove's and
	 * Skymont's PMU in Linux (lnl_common) */
	{ 0xCC, BT_UARCH_LNC }, { 0xD5, BT_UARCH_LNC },
};

/* A model row's part: family 6 (SDM vol. 2A CPUID.01H:EAX, display model
 * = extended model << 4 | model). Its hybrid rows give a class per core
 * type, and a core type they do not name (not reported) is UNKNOWN, as for
 * hybrid[]. Returns false where no row is of that model. */
static bool model_row_uarch(uint32_t model, uint8_t core_type, enum bt_intel_uarch *ret)
{
	bool is_hybrid = false;
	for (size_t i = 0; i < BT_ARRAY_SIZE(model_rows); i++) {
		uint32_t sig = model_rows[i].sig;
		if (((sig >> 8) & 0xF) != 6 || (((sig >> 4) & 0xF) | ((sig >> 12) & 0xF0)) != model)
			continue;
		if (!model_rows[i].core) {
			*ret = (enum bt_intel_uarch)model_rows[i].uarch;
			return true;
		}
		is_hybrid = true;
		if (model_rows[i].core == core_type) {
			*ret = (enum bt_intel_uarch)model_rows[i].uarch;
			return true;
		}
	}
	*ret = BT_UARCH_UNKNOWN;
	return is_hybrid;
}

enum bt_intel_uarch bt_intel_uarch_of(uint32_t family, uint32_t model, uint8_t core_type)
{
	enum bt_intel_uarch u;
	if (family != 6)
		return BT_UARCH_UNKNOWN;
	if (model_row_uarch(model, core_type, &u))
		return u;
	for (size_t i = 0; i < BT_ARRAY_SIZE(hybrid); i++)
		if (hybrid[i].model == model) {
			if (core_type == BT_CORE_TYPE_CORE)
				return (enum bt_intel_uarch)hybrid[i].p_core;
			if (core_type == BT_CORE_TYPE_ATOM)
				return BT_UARCH_ATOM;
			return BT_UARCH_UNKNOWN; /* hybrid model, core type not reported */
		}
	for (size_t i = 0; i < BT_ARRAY_SIZE(plain); i++)
		if (plain[i].model == model)
			return (enum bt_intel_uarch)plain[i].uarch;
	return BT_UARCH_UNKNOWN;
}

bool bt_intel_is_adl_rpl(uint32_t family, uint32_t model)
{
	/* Linux intel_pmu_init(): INTEL_ALDERLAKE(_L), INTEL_RAPTORLAKE(_P, _S). */
	return family == 6 && (model == 0x97 || model == 0x9A || model == 0xB7 ||
			       model == 0xBA || model == 0xBF);
}

bool bt_intel_perf_cap_pm_broken(uint32_t family, uint32_t model)
{
	/* Linux intel_pmu_broken_perf_cap(): INTEL_METEORLAKE(_L). */
	return family == 6 && (model == 0xAA || model == 0xAC);
}

uint8_t bt_intel_effective_core_type(uint32_t family, uint32_t model, bool is_hybrid,
				     uint8_t core_type)
{
	if (is_hybrid)
		return core_type;
	return bt_intel_is_adl_rpl(family, model) ? BT_CORE_TYPE_CORE : 0;
}

const char *bt_intel_uarch_name(enum bt_intel_uarch u)
{
	switch (u) {
	case BT_UARCH_CORE2: return "Core 2";
	case BT_UARCH_NHM: return "Nehalem";
	case BT_UARCH_WSM: return "Westmere";
	case BT_UARCH_WSM_BDW: return "Sandy Bridge..Broadwell";
	case BT_UARCH_SKL: return "Skylake";
	case BT_UARCH_ICL: return "Ice Lake";
	case BT_UARCH_GLC: return "Golden Cove";
	case BT_UARCH_RWC: return "Redwood Cove";
	case BT_UARCH_LNC: return "Lion Cove";
	case BT_UARCH_ATOM: return "Atom (E-core)";
	case BT_UARCH_UNKNOWN: break;
	}
	return "an unknown Intel core";
}

/* Linux intel_pmu_init(): num_topdown_events = 4 for Ice Lake / Tiger
 * Lake, 8 for Sapphire Rapids and in intel_pmu_init_glc() (Golden Cove and
 * every later P-core). PERF_METRICS has no CPUID enumeration of its fields. */
uint8_t bt_intel_perf_metrics_fields(enum bt_intel_uarch u)
{
	switch (u) {
	case BT_UARCH_ICL:
		return 4;
	case BT_UARCH_GLC:
	case BT_UARCH_RWC:
	case BT_UARCH_LNC:
		return 8;
	default:
		return 0;
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * CPUID as the simulated CPU answers it: consistent with its configuration,
 * so that the driver's detection run against it (bt_pmu_caps_detect(), in
 * the tests) finds exactly the PMU the sim models. Leaf layouts: Intel SDM
 * vol. 2A CPUID; AMD APM vol. 3 appendix E.
 */
#include <string.h>

#include "arch/sim/sim-internal.h"

static uint32_t str4(const char *s)
{
	uint32_t v;
	memcpy(&v, s, 4);
	return v;
}

static void brand_leaf(const struct bt_sim_config *c, uint32_t part, struct bt_cpuid *r)
{
	char buf[48];
	memset(buf, 0, sizeof(buf));
	if (c->brand)
		strncpy(buf, c->brand, sizeof(buf) - 1);
	memcpy(&r->eax, buf + 16 * part, 4);
	memcpy(&r->ebx, buf + 16 * part + 4, 4);
	memcpy(&r->ecx, buf + 16 * part + 8, 4);
	memcpy(&r->edx, buf + 16 * part + 12, 4);
}

/* A real part's answer: its table, the brand string excepted; a leaf or
 * subleaf the table does not have reads 0 (every leaf baretop reads below
 * the part's maximum is in it). */
static void part_leaf(const struct bt_sim_config *c, uint32_t leaf, uint32_t subleaf,
		      struct bt_cpuid *ret)
{
	struct bt_cpuid r = { 0, 0, 0, 0 };

	if (leaf >= 0x80000002u && leaf <= 0x80000004u) {
		brand_leaf(c, leaf - 0x80000002u, &r);
	} else {
		uint32_t id = BT_SIM_LEAF_ID(leaf, subleaf);
		for (size_t i = 0; bt_sim_leaf_fits(leaf, subleaf) && i < c->part->n; i++) {
			const struct bt_sim_cpuid_leaf *e = &c->part->leaves[i];
			if (e->id == id) {
				r = (struct bt_cpuid){ e->eax, e->ebx, e->ecx, e->edx };
				break;
			}
		}
	}
	*ret = r;
}

void bt_sim_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t subleaf, struct bt_cpuid *ret)
{
	struct bt_sim *sim = a->ctx;
	const struct bt_sim_config *c = &sim->cfg;
	if (c->part) {
		part_leaf(c, leaf, subleaf, ret);
		if (leaf == 7 && subleaf == 0 && c->tsx_force_abort)
			ret->edx |= 1u << 13; /* the microcode update's TSX_FORCE_ABORT */
		return;
	}
	bool intel = c->vendor == BT_VENDOR_INTEL;
	struct bt_cpuid r = { 0, 0, 0, 0 };
	uint32_t max_basic = intel ? (c->umask2_eq ? 0x23 : c->hybrid ? 0x20 : 0x16) : 0x10;
	uint32_t max_ext = intel ? 0x80000008u : c->amd_v2 ? 0x80000022u : 0x8000001Fu;

	if (leaf <= max_basic || (leaf >= 0x80000000u && leaf <= max_ext)) {
		switch (leaf) {
		case 0:
			r.eax = max_basic;
			r.ebx = str4(intel ? "Genu" : "Auth");
			r.edx = str4(intel ? "ineI" : "enti");
			r.ecx = str4(intel ? "ntel" : "cAMD");
			break;
		case 1:
			r.eax = c->signature;
			r.ecx = (intel && c->pdcm ? 1u << 15 : 0);
			r.edx = (1u << 4) | (1u << 5); /* TSC, MSR */
			if (intel && c->ldlat)
				r.edx |= 1u << 21; /* DS: the sim's PEBS (sim-intel.c pebs()) */
			break;
		case 6:
			r.ecx = c->aperf_mperf ? 1 : 0;
			break;
		case 7:
			if (subleaf == 0) {
				r.eax = intel && c->umask2_eq ? 1 : 0;
				r.edx = (intel && c->hybrid ? 1u << 15 : 0) |
					(intel && c->tsx_force_abort ? 1u << 13 : 0);
			} else if (subleaf == 1) {
				r.eax = intel && c->umask2_eq ? 1u << 8 : 0;
			}
			break;
		case 0x0A:
			if (!intel)
				break;
			r.eax = c->version | (uint32_t)c->num_gp << 8 | (uint32_t)c->gp_width << 16 |
				7u << 24;
			r.ebx = 0; /* all 7 architectural events available */
			r.ecx = c->version >= 5 ? c->fixed_bitmap : 0;
			r.edx = c->num_fixed | (uint32_t)c->fixed_width << 5 |
				(c->any_deprecated ? 1u << 15 : 0);
			break;
		case 0x1A:
			if (intel && c->hybrid)
				r.eax = (uint32_t)c->core_type << 24 | (c->native_model & 0xFFFFFF);
			break;
		case 0x23:
			/* Architectural perfmon extension leaf (SDM vol. 2A CPUID;
			 * Linux ARCH_PERFMON_EXT_*): subleaf 0 EAX = bitmap of the
			 * valid subleaves, EBX[0] UMASK2, EBX[1] EQ; subleaf 1
			 * EAX = general counters, EBX = fixed counters (bitmaps). */
			if (!intel || !c->umask2_eq)
				break;
			if (subleaf == 0) {
				r.eax = 0x3;
				r.ebx = 0x3;
			} else if (subleaf == 1) {
				r.eax = bt_sim_gp_mask(sim);
				r.ebx = bt_sim_fixed_mask(sim);
			}
			break;
		case 0x80000000u:
			r.eax = max_ext;
			if (!intel) {
				r.ebx = str4("Auth");
				r.edx = str4("enti");
				r.ecx = str4("cAMD");
			}
			break;
		case 0x80000001u:
			if (!intel && (c->amd_core_ext || c->amd_v2))
				r.ecx = 1u << 23; /* PerfCtrExtCore */
			break;
		case 0x80000002u: brand_leaf(c, 0, &r); break;
		case 0x80000003u: brand_leaf(c, 1, &r); break;
		case 0x80000004u: brand_leaf(c, 2, &r); break;
		case 0x80000007u:
			r.edx = 1u << 8; /* invariant TSC */
			break;
		case 0x80000022u:
			if (!intel && c->amd_v2) {
				r.eax = 1; /* PerfMonV2 */
				r.ebx = c->num_gp & 0xF;
			}
			break;
		}
	}
	*ret = r;
}

bool bt_sim_tsc_per_xclk(const struct bt_sim_config *c, uint32_t *num, uint32_t *den)
{
	if (c->vendor != BT_VENDOR_INTEL || !c->part)
		return false;
	if (c->family == BT_SIM_FAM_WSM_BDW && c->part->base_ratio) {
		*num = c->part->base_ratio;
		*den = 1;
		return true;
	}
	if (c->family != BT_SIM_FAM_SKL)
		return false;
	struct bt_cpuid r;
	part_leaf(c, 0x15, 0, &r);
	if (!r.eax || !r.ebx)
		return false;
	*num = r.ebx;
	*den = r.eax;
	return true;
}

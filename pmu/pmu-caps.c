/* SPDX-License-Identifier: MIT */
#include "pmu/pmu-caps.h"

#include <stdio.h>
#include <string.h>

#include "pmu/msr.h"

void bt_cpuid_collect(struct bt_arch *a, struct bt_cpuid_leaves *ret)
{
	struct bt_cpuid_leaves l;
	memset(&l, 0, sizeof(l));
	bt_cpuid(a, 0, 0, &l.l00);
	uint32_t max = l.l00.eax;
	if (max >= 0x01) bt_cpuid(a, 0x01, 0, &l.l01);
	if (max >= 0x06) bt_cpuid(a, 0x06, 0, &l.l06);
	if (max >= 0x07) {
		bt_cpuid(a, 0x07, 0, &l.l07);
		if (l.l07.eax >= 1)
			bt_cpuid(a, 0x07, 1, &l.l07_1);
	}
	if (max >= 0x0A) bt_cpuid(a, 0x0A, 0, &l.l0a);
	if (max >= 0x1A) bt_cpuid(a, 0x1A, 0, &l.l1a);
	if (max >= 0x23) bt_cpuid(a, 0x23, 0, &l.l23);
	bt_cpuid(a, 0x80000000u, 0, &l.e00);
	uint32_t emax = l.e00.eax;
	if (emax < 0x80000000u || emax > 0x8000FFFFu)
		emax = 0; /* no extended leaves */
	if (emax >= 0x80000001u) bt_cpuid(a, 0x80000001u, 0, &l.e01);
	if (emax >= 0x80000022u) bt_cpuid(a, 0x80000022u, 0, &l.e22);
	*ret = l;
}

enum bt_vendor bt_cpuid_vendor(const struct bt_cpuid_leaves *l)
{
	char v[13];
	memcpy(v, &l->l00.ebx, 4);
	memcpy(v + 4, &l->l00.edx, 4);
	memcpy(v + 8, &l->l00.ecx, 4);
	v[12] = 0;
	if (strcmp(v, "GenuineIntel") == 0)
		return BT_VENDOR_INTEL;
	if (strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0)
		return BT_VENDOR_AMD;
	return BT_VENDOR_UNKNOWN;
}

bool bt_cpuid_has_pdcm(const struct bt_cpuid_leaves *l)
{
	return (l->l01.ecx >> 15) & 1;
}

static void intel_caps(const struct bt_cpuid_leaves *l, struct bt_pmu_caps *c)
{
	uint32_t eax = l->l0a.eax, ebx = l->l0a.ebx, ecx = l->l0a.ecx, edx = l->l0a.edx;
	c->version = eax & 0xFF;
	if (c->version == 0) {
		snprintf(c->absent_reason, sizeof(c->absent_reason),
			 "CPUID.0AH reports version 0: no architectural PMU");
		return;
	}
	if (c->version < 2) {
		snprintf(c->absent_reason, sizeof(c->absent_reason),
			 "architectural performance monitoring version 1 has no "
			 "IA32_PERF_GLOBAL_CTRL; baretop needs version 2 or later");
		return;
	}
	if (((eax >> 8) & 0xFF) == 0) {
		snprintf(c->absent_reason, sizeof(c->absent_reason),
			 "CPUID.0AH reports version %u with no general-purpose counters",
			 c->version);
		return;
	}
	c->kind = BT_PMU_INTEL_ARCH;
	c->num_gp = (eax >> 8) & 0xFF;
	if (c->num_gp > BT_PMU_MAX_GP)
		c->num_gp = BT_PMU_MAX_GP;
	c->gp_width = (eax >> 16) & 0xFF;
	c->gp_mask = c->num_gp ? (uint32_t)bt_width_mask(c->num_gp) : 0;
	c->arch_events_len = (eax >> 24) & 0xFF;
	c->arch_events_na = ebx;
	/* EDX[4:0] fixed counters, EDX[12:5] their width (valid if version > 1).
	 * v5: ECX is a bitmap of further supported fixed counters; fixed counter
	 * i exists iff ECX[i] || EDX[4:0] > i (SDM vol. 2A, CPUID leaf 0AH). */
	unsigned nfixed = edx & 0x1F;
	uint32_t fmask = nfixed ? (uint32_t)bt_width_mask(nfixed) : 0;
	if (c->version >= 5)
		fmask |= ecx;
	fmask &= (uint32_t)bt_width_mask(BT_PMU_MAX_FIXED);
	c->fixed_mask = fmask;
	c->num_fixed = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
		if (fmask & (1u << i))
			c->num_fixed = (uint8_t)(i + 1);
	c->fixed_width = (edx >> 5) & 0xFF;
	c->any_thread_deprecated = (edx >> 15) & 1;
	/* Leaf 23H exists when CPUID.(EAX=07H,ECX=1):EAX[8] is set. */
	if ((l->l07_1.eax >> 8) & 1 && l->l00.eax >= 0x23) {
		c->umask2 = l->l23.ebx & 1;
		c->eq = (l->l23.ebx >> 1) & 1;
	}
}

static void amd_caps(const struct bt_cpuid_leaves *l, struct bt_pmu_caps *c)
{
	c->version = 0;
	c->gp_width = AMD_COUNTER_WIDTH;
	c->amd_core_ext = (l->e01.ecx >> 23) & 1;
	c->amd_perfmon_v2 = l->e22.eax & 1;
	c->amd_lbr_v2 = (l->e22.eax >> 1) & 1;
	if (c->amd_perfmon_v2) {
		c->kind = BT_PMU_AMD_V2;
		/* Fn8000_0022 EBX[3:0] NumPerfCtrCore. */
		c->num_gp = l->e22.ebx & 0xF;
		if (c->num_gp == 0)
			c->num_gp = 6;
	} else if (c->amd_core_ext) {
		c->kind = BT_PMU_AMD_CORE_EXT;
		c->num_gp = 6;
	} else {
		c->kind = BT_PMU_AMD_LEGACY;
		c->num_gp = 4;
	}
	c->gp_mask = (uint32_t)bt_width_mask(c->num_gp);
}

void bt_pmu_caps_from_cpuid(const struct bt_cpuid_leaves *l, struct bt_pmu_caps *ret)
{
	struct bt_pmu_caps c;
	memset(&c, 0, sizeof(c));
	switch (bt_cpuid_vendor(l)) {
	case BT_VENDOR_INTEL:
		if (l->l00.eax < 0x0A)
			snprintf(c.absent_reason, sizeof(c.absent_reason),
				 "CPUID has no leaf 0AH: no architectural performance monitoring");
		else
			intel_caps(l, &c);
		break;
	case BT_VENDOR_AMD:
		amd_caps(l, &c);
		break;
	default:
		snprintf(c.absent_reason, sizeof(c.absent_reason),
			 "unknown CPU vendor: baretop drives Intel and AMD PMUs only");
		break;
	}
	*ret = c;
}

void bt_pmu_caps_apply_perf_capabilities(struct bt_pmu_caps *caps, uint64_t value)
{
	caps->has_perf_capabilities = true;
	caps->perf_capabilities = value;
	caps->full_width_write = (value & PERF_CAP_FW_WRITE) != 0;
	/* PERF_METRICS needs fixed counter 3 (SLOTS) as its base. */
	caps->perf_metrics = (value & PERF_CAP_PERF_METRICS) != 0 &&
			     (caps->fixed_mask & (1u << 3));
}

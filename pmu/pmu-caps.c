/* SPDX-License-Identifier: MIT */
#include "pmu/pmu-caps.h"

#include <stdio.h>
#include <string.h>

#include "base/notes.h"
#include "pmu/intel-uarch.h"
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
	if (max >= 0x15) bt_cpuid(a, 0x15, 0, &l.l15);
	if (max >= 0x1A) bt_cpuid(a, 0x1A, 0, &l.l1a);
	if (max >= 0x23) {
		bt_cpuid(a, 0x23, 0, &l.l23);
		if ((l.l23.eax >> 1) & 1)
			bt_cpuid(a, 0x23, 1, &l.l23_1);
		if ((l.l23.eax >> 3) & 1)
			bt_cpuid(a, 0x23, 3, &l.l23_3);
	}
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
	return bt_vendor_from_cpuid(&l->l00);
}

bool bt_cpuid_has_pdcm(const struct bt_cpuid_leaves *l)
{
	return (l->l01.ecx >> 15) & 1;
}

/*
 * Leaf 0AH answers no processor can give (SDM vol. 2A, CPUID leaf 0AH
 * "Architectural Performance Monitoring Leaf"; vol. 3B 21.2): a broken
 * hypervisor or an edited dump. They are named as impossible and the PMU
 * taken as absent, never believed as counters baretop would program.
 *  - EAX[7:0] version: the SDM defines versions 1 to 6 (21.2.1-21.2.6).
 *  - EAX[15:8] general counters: IA32_PERF_GLOBAL_CTRL/STATUS enable them in
 *    bits 31:0 (fixed counter i is bit 32+i), so at most 32.
 *  - EAX[23:16] and EDX[12:5] bit widths: a counter is one 64-bit MSR
 *    (IA32_PMCx, IA32_FIXED_CTRx), so at most 64, and a counter of 0 bits
 *    counts nothing.
 *  - EDX[4:0] and ECX (v5 bitmap) fixed counters: bits 47:32 of the global
 *    registers, so at most 16 (fixed counter indexes 0-15).
 * Returns true, with the reason in c->absent_reason, for such an answer.
 */
#define BT_SDM_MAX_PERFMON_VERSION 6

static bool leaf0a_impossible(uint32_t eax, uint32_t ecx, uint32_t edx, struct bt_pmu_caps *c)
{
	unsigned version = eax & 0xFF, ngp = (eax >> 8) & 0xFF, gpw = (eax >> 16) & 0xFF;
	unsigned nfix = edx & 0x1F, fxw = (edx >> 5) & 0xFF;
	char what[160] = "";

	if (version > BT_SDM_MAX_PERFMON_VERSION)
		snprintf(what, sizeof(what), "version %u (EAX[7:0]; the SDM defines versions 1 to %u)",
			 version, BT_SDM_MAX_PERFMON_VERSION);
	else if (ngp > 32)
		snprintf(what, sizeof(what), "%u general counters (EAX[15:8]; IA32_PERF_GLOBAL_CTRL "
			 "has bits for at most 32)", ngp);
	else if (gpw > 64 || (ngp && gpw == 0))
		snprintf(what, sizeof(what), "general counters %u bits wide (EAX[23:16]; a counter is "
			 "one 64-bit MSR: 1 to 64)", gpw);
	else if (version >= 2 && nfix > 16)
		snprintf(what, sizeof(what), "%u fixed counters (EDX[4:0]; IA32_PERF_GLOBAL_CTRL has "
			 "bits 47:32 for at most 16)", nfix);
	else if (version >= 5 && (ecx >> 16))
		snprintf(what, sizeof(what), "fixed-counter bitmap 0x%x (ECX; fixed counters 16 and up "
			 "do not exist: IA32_PERF_GLOBAL_CTRL has bits 47:32 for them)", ecx);
	else if (version >= 2 && fxw > 64)
		snprintf(what, sizeof(what), "fixed counters %u bits wide (EDX[12:5]; a counter is one "
			 "64-bit MSR)", fxw);
	if (!what[0])
		return false;
	snprintf(c->absent_reason, sizeof(c->absent_reason),
		 "CPUID.0AH is impossible: %s, EAX=%08X ECX=%08X EDX=%08X: no processor "
		 "answers that", what, eax, ecx, edx);
	c->cpuid_impossible = true;
	return true;
}

/*
 * The clock of CPU_CLK_UNHALTED.REF_XCLK (0x3C/0x01) and ONE_THREAD_ACTIVE
 * (0x3C/0x02) in TSC ticks, where the part says it. Intel's event tables
 * (intel/perfmon; ../shared/reference/intel/IVB, HSW, SKL, SKX) define REF_XCLK as
 * "Reference cycles when the thread is unhalted (counts at 100 MHz rate)"
 * on Ivy Bridge and Haswell (Sandy Bridge and Broadwell alike), and as
 * "Core crystal clock cycles when the thread is unhalted" on Skylake and
 * Skylake-SP. The TSC is, on the first, MSR_PLATFORM_INFO[15:8] times that
 * 100 MHz (SDM vol. 4: "Frequency = ratio * 100 MHz"; Linux turbostat
 * takes base_hz = that ratio x bclk, bclk 100 MHz from Sandy Bridge on),
 * on the second "core crystal clock frequency * EBX/EAX" of CPUID.15H (SDM
 * vol. 3B "Determining the Processor Base Frequency"). Both are exact by
 * definition: the TSC is generated from that clock, so a bus clock off
 * 100 MHz or a spread-spectrum crystal moves both together, and the
 * crystal's frequency itself (CPUID.15H:ECX, 0 on these parts) is not
 * needed. Not on other classes: the probe is for Ivy Bridge .. Cascade
 * Lake, and a ratio baretop has no table for is left to the count
 * (pmu/sibling.h). The MSR half is read by bt_pmu_caps_detect.
 */
static void xclk_ratio(const struct bt_cpuid_leaves *l, struct bt_pmu_caps *c)
{
	if (c->uarch == BT_UARCH_SKL && l->l15.eax && l->l15.ebx) {
		c->tsc_per_xclk_num = l->l15.ebx;
		c->tsc_per_xclk_den = l->l15.eax;
		c->tsc_per_xclk_from = "CPUID.15H EBX/EAX";
	}
}

static void intel_caps(const struct bt_cpuid_leaves *l, struct bt_pmu_caps *c)
{
	uint32_t eax = l->l0a.eax, ebx = l->l0a.ebx, ecx = l->l0a.ecx, edx = l->l0a.edx;
	if (leaf0a_impossible(eax, ecx, edx, c))
		return;
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
	/* SDM vol. 2A CPUID leaf 0AH: event x is available when EBX[x] = 0
	 * and the vector is long enough to hold bit x (EAX[31:24] > x); a set
	 * bit means NOT available. Granite Rapids' length 8 hides the Topdown
	 * events 8-11 its leaf 23H lists. */
	for (unsigned x = 0; x < 32 && x < c->arch_events_len; x++)
		if (!((ebx >> x) & 1))
			c->arch_events |= 1u << x;
	/* EDX[4:0] fixed counters, EDX[12:5] their width (valid if version > 1).
	 * v5: ECX is a bitmap of further supported fixed counters; fixed counter
	 * i exists iff ECX[i] || EDX[4:0] > i (SDM vol. 2A, CPUID leaf 0AH). */
	unsigned nfixed = edx & 0x1F;
	c->fixed_width = (edx >> 5) & 0xFF;
	/* Early processors with perfmon v2 may report no fixed counters in
	 * EDX although they have the three architectural ones (SDM vol. 3B
	 * 20.2.2 defines fixed counters 0-2 for v2; Linux intel_pmu_init()
	 * applies the same quirk to versions 2-4, on bare metal only: under a
	 * hypervisor EDX is the VMM's word and is believed). */
	bool hypervisor = (l->l01.ecx >> 31) & 1;
	if (c->version >= 2 && c->version <= 4 && !hypervisor && nfixed < 3) {
		nfixed = 3;
		if (c->fixed_width == 0)
			c->fixed_width = c->gp_width;
	}
	uint32_t fmask = nfixed ? (uint32_t)bt_width_mask(nfixed) : 0;
	if (c->version >= 5)
		fmask |= ecx;
	/* Leaf 23H exists when CPUID.(EAX=07H,ECX=1):EAX[8] is set. */
	if ((l->l07_1.eax >> 8) & 1 && l->l00.eax >= 0x23) {
		c->umask2 = l->l23.ebx & 1;
		c->eq = (l->l23.ebx >> 1) & 1;
		/* Subleaf 1 (valid per CPUID.23H:EAX[1]) enumerates the counters
		 * as bitmaps; they replace leaf 0AH's counts (SDM vol. 2B RDPMC:
		 * GP counter x is valid if CPUID.23H.01H:EAX[x], fixed counter x
		 * if CPUID.23H.01H:EBX[x]; Linux update_pmu_cap() does the same). */
		if ((l->l23.eax >> 1) & 1) {
			c->v6_counter_leaf = true;
			c->gp_mask = l->l23_1.eax & (uint32_t)bt_width_mask(BT_PMU_MAX_GP);
			fmask = l->l23_1.ebx;
		}
		/* Subleaf 3 (valid per CPUID.23H:EAX[3]): EAX bit x = 1 means
		 * architectural event x is available on this logical processor;
		 * it is per core type and replaces leaf 0AH's vector. Subleaf 0
		 * ECX[7:0] is SLOTS_PER_CYC. */
		if ((l->l23.eax >> 3) & 1) {
			c->arch_events = l->l23_3.eax;
			c->arch_events_23h = true;
		}
		c->slots_per_cycle = (uint8_t)(l->l23.ecx & 0xFF);
	}
	c->any_thread_deprecated = (edx >> 15) & 1;
	c->ds = (l->l01.edx >> 21) & 1;
	c->tsx_force_abort = ((l->l07.edx >> 13) & 1) && !((l->l07.edx >> 11) & 1);

	/* The microarchitecture class: display family/model (SDM vol. 2A
	 * CPUID.01H:EAX) and, on hybrid parts (CPUID.07H:EDX[15]), the core
	 * type in CPUID.1AH:EAX[31:24]. */
	uint32_t sig = l->l01.eax, fam = (sig >> 8) & 0xF, model = (sig >> 4) & 0xF;
	if (fam == 0x6 || fam == 0xF)
		model |= ((sig >> 16) & 0xF) << 4;
	if (fam == 0xF)
		fam += (sig >> 20) & 0xFF;
	bool hybrid = (l->l07.edx >> 15) & 1;
	uint8_t core_type = 0;
	if (hybrid && l->l00.eax >= 0x1A)
		core_type = (uint8_t)(l->l1a.eax >> 24);
	core_type = bt_intel_effective_core_type(fam, model, hybrid, core_type);
	c->uarch = (uint8_t)bt_intel_uarch_of(fam, model, core_type);
	xclk_ratio(l, c);

	/* Alder Lake / Raptor Lake have no leaf 23H, and on a hybrid part
	 * leaf 0AH enumerates only the counters common to both core types
	 * (a real i9-13900K P-core answers EAX=07300605h, EDX=8603h: 6 and 3).
	 * The P-core has 2 more general counters and fixed counter 3 (Linux
	 * intel_pmu_init(), INTEL_ALDERLAKE..RAPTORLAKE_S: cntr_mask <<= 2 |
	 * 3, fixed_cntr_mask <<= 1 | 1). With the E-cores disabled in the BIOS
	 * the part still says hybrid but leaf 0AH already gives the P-core's
	 * 8 and 4; more than 8 general or 4 fixed after the shift means that
	 * case, and leaf 0AH's values stand (Linux does the same check). */
	if (bt_intel_is_adl_rpl(fam, model) && hybrid && core_type == BT_CORE_TYPE_CORE &&
	    !c->v6_counter_leaf) {
		uint32_t gp = (c->gp_mask << 2) | 0x3, fx = (fmask << 1) | 0x1;
		if (__builtin_popcount(gp) > 8 || __builtin_popcount(fx) > 4) {
			c->quirks |= BT_PMU_QUIRK_HYBRID_ALL_COUNTERS;
		} else {
			c->gp_mask = gp;
			fmask = fx;
			c->quirks |= BT_PMU_QUIRK_HYBRID_BIG_COUNTERS;
		}
	}

	/* Below perfmon version 6 the general counters live at
	 * IA32_PERFEVTSELi = 0x186 + i and IA32_PMCi = 0xC1 + i, and SDM vol. 4
	 * (table 2-2) defines those for i = 0..7 only: 0x18E and 0xC9 are not
	 * counters. A part enumerating more (an ARL-H Lion Cove core: version
	 * 5, CPUID.23H.01H:EAX = 3FFh) is driven with the first 8. */
	c->enumerated_gp = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (c->gp_mask & (1u << i))
			c->enumerated_gp = (uint8_t)(i + 1);
	if (c->version < 6 && c->enumerated_gp > 8) {
		c->gp_mask &= 0xFF;
		c->quirks |= BT_PMU_QUIRK_GP_CLAMPED;
	}
	c->num_gp = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (c->gp_mask & (1u << i))
			c->num_gp = (uint8_t)(i + 1);

	fmask &= (uint32_t)bt_width_mask(BT_PMU_MAX_FIXED);
	c->fixed_mask = fmask;
	c->num_fixed = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
		if (fmask & (1u << i))
			c->num_fixed = (uint8_t)(i + 1);

	/* PERF_METRICS on hybrid parts (Linux intel_pmu_init_hybrid(): the big
	 * core has it, the small ones do not, whatever the boot CPU's
	 * IA32_PERF_CAPABILITIES said; update_pmu_cap() then reads the MSR per
	 * core type only where leaf 23H exists, and not on Meteor Lake, whose
	 * bit 15 "is always cleared": intel_pmu_broken_perf_cap()). On bare
	 * metal only: under a hypervisor the MSR is the VMM's word. */
	c->perf_metrics_rule = BT_PM_FROM_MSR;
	bool pm_by_model = bt_intel_is_adl_rpl(fam, model) ||
			   bt_intel_perf_cap_pm_broken(fam, model);
	if (pm_by_model && !hypervisor) {
		if (core_type == BT_CORE_TYPE_CORE) {
			c->perf_metrics_rule = BT_PM_ASSUMED_ON;
			c->quirks |= BT_PMU_QUIRK_PM_ASSUMED;
		} else if (core_type == BT_CORE_TYPE_ATOM) {
			c->perf_metrics_rule = BT_PM_ASSUMED_OFF;
			c->quirks |= BT_PMU_QUIRK_PM_NONE;
		}
		if (bt_intel_perf_cap_pm_broken(fam, model))
			c->quirks |= BT_PMU_QUIRK_PM_BIT_BROKEN;
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
	/* Display family and model (APM vol. 3 CPUID Fn0000_0001_EAX: the
	 * extended fields count when the base family is 0Fh). */
	uint32_t sig = l->l01.eax, fam = (sig >> 8) & 0xF, model = (sig >> 4) & 0xF;
	if (fam == 0xF) {
		fam += (sig >> 20) & 0xFF;
		model |= ((sig >> 16) & 0xF) << 4;
	}
	/* PMCx02B ls_smi_rx is in Linux perf's amdzen2/memory.json,
	 * amdzen3/memory.json, amdzen4/core.json and amdzen5/load-store.json,
	 * not in amdzen1's; tools/perf/pmu-events/arch/x86/mapfile.csv maps
	 * amdzen1 to family 17h models 00h-2Fh (AuthenticAMD-23-([12][0-9A-F]|
	 * [0-9A-F])), amdzen2 to the rest of 17h, amdzen3 and amdzen4 to
	 * family 19h, amdzen5 to 1Ah. */
	c->amd_smi_rx = (fam == 0x17 && model >= 0x30) || fam == 0x19 || fam == 0x1A;
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
	bool pm = (value & PERF_CAP_PERF_METRICS) != 0;
	if (caps->perf_metrics_rule == BT_PM_ASSUMED_ON)
		pm = true;
	else if (caps->perf_metrics_rule == BT_PM_ASSUMED_OFF)
		pm = false;
	caps->perf_metrics = pm && (caps->fixed_mask & (1u << 3));
	/* How many fields exist is not enumerated: per microarchitecture. An
	 * unknown part with PERF_METRICS is given the 4 level-1 fields every
	 * such part has; level-2 fields would read reserved bytes there. */
	caps->perf_metrics_fields = 0;
	if (caps->perf_metrics) {
		caps->perf_metrics_fields = bt_intel_perf_metrics_fields(caps->uarch);
		if (caps->perf_metrics_fields == 0)
			caps->perf_metrics_fields = 4;
	}
}

void bt_arch_td_from_caps(const struct bt_pmu_caps *caps, struct bt_arch_td *ret)
{
	struct bt_arch_td t;
	memset(&t, 0, sizeof(t));
	if (caps && caps->kind == BT_PMU_INTEL_ARCH) {
		t.known = true;
		t.events = caps->arch_events;
		t.events_23h = caps->arch_events_23h;
		t.slots_per_cycle = caps->slots_per_cycle;
		t.fixed_mask = caps->fixed_mask;
		t.perf_metrics_fields = caps->perf_metrics ? caps->perf_metrics_fields : 0;
	}
	*ret = t;
}

void bt_pmu_caps_detect(struct bt_arch *a, struct bt_pmu_caps *ret)
{
	struct bt_cpuid_leaves l;
	struct bt_pmu_caps caps;

	bt_cpuid_collect(a, &l);
	bt_pmu_caps_from_cpuid(&l, &caps);
	/* IA32_PERF_CAPABILITIES exists iff CPUID.01H:ECX[15] (PDCM). */
	if (caps.kind == BT_PMU_INTEL_ARCH && bt_cpuid_has_pdcm(&l)) {
		uint64_t v;

		if (bt_rdmsr(a, MSR_IA32_PERF_CAPABILITIES, &v) == BT_OK)
			bt_pmu_caps_apply_perf_capabilities(&caps, v);
	}
	/* Sandy Bridge .. Broadwell: REF_XCLK's 100 MHz in TSC ticks
	 * (xclk_ratio); a read that faults, or reads 0 (QEMU answers 0 to
	 * every MSR), leaves it not enumerated. */
	if (caps.kind == BT_PMU_INTEL_ARCH && caps.uarch == BT_UARCH_WSM_BDW) {
		uint64_t v;

		if (bt_rdmsr(a, MSR_PLATFORM_INFO, &v) == BT_OK && PLATFORM_INFO_RATIO(v)) {
			caps.tsc_per_xclk_num = PLATFORM_INFO_RATIO(v);
			caps.tsc_per_xclk_den = 1;
			caps.tsc_per_xclk_from = "MSR_PLATFORM_INFO[15:8]";
		}
	}
	*ret = caps;
}

unsigned bt_pmu_caps_notes(const struct bt_pmu_caps *caps, char (*out)[200], unsigned max)
{
	unsigned n = 0, dropped = 0;
	char note[200];

	for (unsigned bit = 0; bit < 32; bit++) {
		uint32_t q = 1u << bit;
		if (!(caps->quirks & q))
			continue;
		switch (q) {
		case BT_PMU_QUIRK_HYBRID_BIG_COUNTERS:
			snprintf(note, sizeof(note), "Alder/Raptor Lake P-core: CPUID.0AH lists only the "
				 "counters shared with the E-cores; 2 general and fixed counter 3 "
				 "added (as Linux perf does)");
			break;
		case BT_PMU_QUIRK_HYBRID_ALL_COUNTERS:
			snprintf(note, sizeof(note), "Alder/Raptor Lake P-core: CPUID.0AH already lists "
				 "all P-core counters (E-cores disabled?): taken as enumerated");
			break;
		case BT_PMU_QUIRK_PM_ASSUMED:
			snprintf(note, sizeof(note), "PERF_METRICS assumed present on this P-core whatever "
				 "IA32_PERF_CAPABILITIES[15] says (as Linux perf does)");
			break;
		case BT_PMU_QUIRK_PM_NONE:
			snprintf(note, sizeof(note), "E-core of a hybrid part: no PERF_METRICS");
			break;
		case BT_PMU_QUIRK_PM_BIT_BROKEN:
			snprintf(note, sizeof(note), "Meteor Lake: IA32_PERF_CAPABILITIES[15] always reads 0 "
				 "(Linux intel_pmu_broken_perf_cap()): ignored");
			break;
		case BT_PMU_QUIRK_GP_CLAMPED:
			snprintf(note, sizeof(note), "CPUID enumerates %u general counters but perfmon "
				 "version %u addresses only 8 (IA32_PERFEVTSEL0-7, IA32_PMC0-7): "
				 "counters 8-%u are not used", caps->enumerated_gp, caps->version,
				 caps->enumerated_gp - 1u);
			break;
		default:
			continue;
		}
		/* More corrections than room: the last entry says so. */
		n = bt_notes_add(out[0], sizeof(out[0]), max, n, &dropped, "%s", note);
	}
	return n;
}

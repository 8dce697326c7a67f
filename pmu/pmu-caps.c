/* SPDX-License-Identifier: MIT */
#include "pmu/pmu-caps.h"

#include <stdio.h>
#include <string.h>

#include "base/notes.h"
#include "pmu/intel-uarch.h"
#include "pmu/msr.h"
#include "pmu/perfmon-leaves.h"

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

/* ---- leaf decoders: what CPUID says, in the caps' terms ---- */

/* Leaf 0AH, or the reason there is no PMU baretop can drive (false). Sets
 * *ret_nfixed to the contiguous fixed counters of EDX[4:0]. */
static bool leaf0a_caps(const struct bt_cpuid *raw, const struct bt_leaf0a *a,
			struct bt_pmu_caps *c, unsigned *ret_nfixed)
{
	char why[160];
	if (bt_leaf0a_impossible(a, why, sizeof(why))) {
		snprintf(c->absent_reason, sizeof(c->absent_reason),
			 "CPUID.0AH is impossible: %s, EAX=%08X ECX=%08X EDX=%08X: no processor "
			 "answers that", why, raw->eax, raw->ecx, raw->edx);
		c->cpuid_impossible = true;
		return false;
	}
	c->version = a->version;
	if (c->version == 0) {
		snprintf(c->absent_reason, sizeof(c->absent_reason),
			 "CPUID.0AH reports version 0: no architectural PMU");
		return false;
	}
	if (c->version < 2) {
		snprintf(c->absent_reason, sizeof(c->absent_reason),
			 "architectural performance monitoring version 1 has no "
			 "IA32_PERF_GLOBAL_CTRL; baretop needs version 2 or later");
		return false;
	}
	if (a->num_gp == 0) {
		snprintf(c->absent_reason, sizeof(c->absent_reason),
			 "CPUID.0AH reports version %u with no general-purpose counters",
			 c->version);
		return false;
	}
	c->kind = BT_PMU_INTEL_ARCH;
	c->num_gp = a->num_gp > BT_PMU_MAX_GP ? BT_PMU_MAX_GP : a->num_gp;
	c->gp_width = a->gp_width;
	c->gp_mask = (uint32_t)bt_width_mask(c->num_gp);
	c->arch_events_len = a->events_len;
	c->arch_events_na = a->events_na;
	/* Granite Rapids' vector length 8 hides the Topdown events 8-11 its
	 * leaf 23H lists: leaf23_caps() replaces the vector where it can. */
	c->arch_events = bt_leaf0a_events(a);
	c->fixed_width = a->fixed_width;
	c->any_thread_deprecated = a->any_deprecated;
	*ret_nfixed = a->num_fixed;
	return true;
}

/* Leaf 23H where it exists: UMASK2/EQ, SLOTS_PER_CYC, and the counter
 * bitmaps and per-core-type event vector, which replace leaf 0AH's (Linux
 * update_pmu_cap() does the same). */
static void leaf23_caps(const struct bt_leaf23 *x, struct bt_pmu_caps *c, uint32_t *fmask)
{
	if (!x->present)
		return;
	c->umask2 = x->umask2;
	c->eq = x->eq;
	if (x->counters) {
		c->v6_counter_leaf = true;
		c->gp_mask = x->gp_bitmap & (uint32_t)bt_width_mask(BT_PMU_MAX_GP);
		*fmask = x->fixed_bitmap;
	}
	if (x->events) {
		c->arch_events = x->arch_events;
		c->arch_events_23h = true;
	}
	c->slots_per_cycle = x->slots_per_cycle;
}

/* The core: display family/model (SDM vol. 2A CPUID.01H:EAX) and, on
 * hybrid parts (CPUID.07H:EDX[15]), the core type in CPUID.1AH:EAX[31:24]. */
struct intel_core {
	uint32_t family, model;
	bool hybrid, hypervisor;
	uint8_t core_type;
};

static void core_of(const struct bt_cpuid_leaves *l, struct intel_core *ret)
{
	uint32_t sig = l->l01.eax, fam = (sig >> 8) & 0xF, model = (sig >> 4) & 0xF;
	if (fam == 0x6 || fam == 0xF)
		model |= ((sig >> 16) & 0xF) << 4;
	if (fam == 0xF)
		fam += (sig >> 20) & 0xFF;
	ret->family = fam;
	ret->model = model;
	ret->hybrid = (l->l07.edx >> 15) & 1;
	ret->hypervisor = (l->l01.ecx >> 31) & 1;
	ret->core_type = 0;
	if (ret->hybrid && l->l00.eax >= 0x1A)
		ret->core_type = (uint8_t)(l->l1a.eax >> 24);
	ret->core_type = bt_intel_effective_core_type(fam, model, ret->hybrid, ret->core_type);
}

/* The counts the final masks imply (counters are indexed 0..n-1). */
static void counters_from_masks(struct bt_pmu_caps *c, uint32_t fmask)
{
	c->num_gp = (uint8_t)bt_bitmap_span(c->gp_mask & (uint32_t)bt_width_mask(BT_PMU_MAX_GP));
	c->fixed_mask = fmask & (uint32_t)bt_width_mask(BT_PMU_MAX_FIXED);
	c->num_fixed = (uint8_t)bt_bitmap_span(c->fixed_mask);
}

/* ---- named quirks: where a part's CPUID is not the whole truth ---- */

/*
 * Linux intel_pmu_init(), "Quirk: v2 perfmon does not report fixed-purpose
 * events, so assume at least 3 events, when not running in a hypervisor":
 * early processors with perfmon v2 may report no fixed counters in EDX
 * although they have the three architectural ones (SDM vol. 3B 20.2.2
 * defines fixed counters 0-2 for v2); Linux applies it to versions 2-4. On
 * bare metal only: under a hypervisor EDX is the VMM's word and is believed.
 */
static unsigned quirk_v2_fixed_counters(struct bt_pmu_caps *c, const struct intel_core *k,
					unsigned nfixed)
{
	if (c->version >= 2 && c->version <= 4 && !k->hypervisor && nfixed < 3) {
		nfixed = 3;
		if (c->fixed_width == 0)
			c->fixed_width = c->gp_width;
	}
	return nfixed;
}

/*
 * Linux intel_pmu_init(), case INTEL_ALDERLAKE .. INTEL_RAPTORLAKE_S: Alder
 * Lake / Raptor Lake have no leaf 23H, and on a hybrid part leaf 0AH
 * enumerates only the counters common to both core types (a real
 * i9-13900K P-core answers EAX=07300605h, EDX=8603h: 6 and 3). The P-core
 * has 2 more general counters and fixed counter 3 (cntr_mask <<= 2 | 3,
 * fixed_cntr_mask <<= 1 | 1). And Linux's "Quirk: For some Alder Lake
 * machine, when all E-cores are disabled in a BIOS, the leaf 0xA will
 * enumerate all counters of P-cores" (commit 7fa981cad216, "perf/x86/intel:
 * Add a quirk for the calculation of the number of counters on Alder
 * Lake"): the part still says hybrid, so more than 8 general or 4 fixed
 * after the shift means that case, and leaf 0AH's values stand.
 */
static void quirk_adl_hybrid_counters(struct bt_pmu_caps *c, const struct intel_core *k,
				      uint32_t *fmask)
{
	if (!bt_intel_is_adl_rpl(k->family, k->model) || !k->hybrid ||
	    k->core_type != BT_CORE_TYPE_CORE || c->v6_counter_leaf)
		return;
	uint32_t gp = (c->gp_mask << 2) | 0x3, fx = (*fmask << 1) | 0x1;
	if (__builtin_popcount(gp) > 8 || __builtin_popcount(fx) > 4) {
		c->quirks |= BT_PMU_QUIRK_HYBRID_ALL_COUNTERS;
	} else {
		c->gp_mask = gp;
		*fmask = fx;
		c->quirks |= BT_PMU_QUIRK_HYBRID_BIG_COUNTERS;
	}
}

/*
 * Below perfmon version 6 the general counters live at IA32_PERFEVTSELi =
 * 0x186 + i and IA32_PMCi = 0xC1 + i, and SDM vol. 4 (table 2-2) defines
 * those for i = 0..7 only: 0x18E and 0xC9 are not counters. A part
 * enumerating more (an ARL-H Lion Cove core: version 5, CPUID.23H.01H:EAX
 * = 3FFh) is driven with the first 8 (the SDM's MSR map; Linux names no
 * quirk for it).
 */
static void quirk_legacy_counter_msrs(struct bt_pmu_caps *c)
{
	c->enumerated_gp = (uint8_t)bt_bitmap_span(c->gp_mask &
						   (uint32_t)bt_width_mask(BT_PMU_MAX_GP));
	if (c->version < 6 && c->enumerated_gp > 8) {
		c->gp_mask &= 0xFF;
		c->quirks |= BT_PMU_QUIRK_GP_CLAMPED;
	}
}

/*
 * PERF_METRICS on hybrid parts: Linux intel_pmu_init_hybrid() gives it to
 * the big core and not to the small ones, whatever the boot CPU's
 * IA32_PERF_CAPABILITIES said; update_pmu_cap() then reads the MSR per
 * core type only where leaf 23H exists, and not on Meteor Lake, whose bit
 * 15 "is always cleared" (intel_pmu_broken_perf_cap()). On bare metal
 * only: under a hypervisor the MSR is the VMM's word.
 */
static void quirk_hybrid_perf_metrics(struct bt_pmu_caps *c, const struct intel_core *k)
{
	c->perf_metrics_rule = BT_PM_FROM_MSR;
	bool broken = bt_intel_perf_cap_pm_broken(k->family, k->model);
	if (!(bt_intel_is_adl_rpl(k->family, k->model) || broken) || k->hypervisor)
		return;
	if (k->core_type == BT_CORE_TYPE_CORE) {
		c->perf_metrics_rule = BT_PM_ASSUMED_ON;
		c->quirks |= BT_PMU_QUIRK_PM_ASSUMED;
	} else if (k->core_type == BT_CORE_TYPE_ATOM) {
		c->perf_metrics_rule = BT_PM_ASSUMED_OFF;
		c->quirks |= BT_PMU_QUIRK_PM_NONE;
	}
	if (broken)
		c->quirks |= BT_PMU_QUIRK_PM_BIT_BROKEN;
}

static void intel_caps(const struct bt_cpuid_leaves *l, struct bt_pmu_caps *c)
{
	struct bt_leaf0a a;
	struct bt_leaf23 x;
	struct intel_core k;
	unsigned nfixed;

	bt_leaf0a_decode(&l->l0a, &a);
	if (!leaf0a_caps(&l->l0a, &a, c, &nfixed))
		return;
	core_of(l, &k);
	nfixed = quirk_v2_fixed_counters(c, &k, nfixed);
	uint32_t fmask = (nfixed ? (uint32_t)bt_width_mask(nfixed) : 0) | a.fixed_bitmap;
	bt_leaf23_decode(l->l00.eax, &l->l07_1, &l->l23, &l->l23_1, &l->l23_3, &x);
	leaf23_caps(&x, c, &fmask);
	c->ds = (l->l01.edx >> 21) & 1;
	c->tsx_force_abort = ((l->l07.edx >> 13) & 1) && !((l->l07.edx >> 11) & 1);
	c->uarch = (uint8_t)bt_intel_uarch_of(k.family, k.model, k.core_type);
	xclk_ratio(l, c);
	quirk_adl_hybrid_counters(c, &k, &fmask);
	quirk_legacy_counter_msrs(c);
	counters_from_masks(c, fmask);
	quirk_hybrid_perf_metrics(c, &k);
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

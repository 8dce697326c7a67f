/* SPDX-License-Identifier: MIT */
/*
 * CPUID leaves -> struct bt_pmu_caps, as pure functions of the leaf values,
 * so that the hardware detection (pmu/cpu-detect.c) and the simulated PMU's
 * tests decode CPUID the same way, and the decoding is testable hosted.
 */
#ifndef PMU_PMU_CAPS_H
#define PMU_PMU_CAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/arch.h"
#include "base/arch-event.h"
#include "pmu/cpu-info.h"

/* The leaves PMU detection reads. A leaf above the reported maximum
 * (CPUID.0H:EAX, CPUID.80000000H:EAX) is left all zero. */
struct bt_cpuid_leaves {
	struct bt_cpuid l00;      /* max basic leaf, vendor */
	struct bt_cpuid l01;      /* signature; ECX[15] PDCM */
	struct bt_cpuid l06;      /* ECX[0] APERF/MPERF */
	struct bt_cpuid l07;      /* EDX[15] hybrid */
	struct bt_cpuid l07_1;    /* EAX[8] architectural perfmon extension leaf 23H */
	struct bt_cpuid l0a;      /* architectural performance monitoring */
	struct bt_cpuid l15;      /* TSC / core crystal clock ratio (EBX/EAX) */
	struct bt_cpuid l1a;      /* hybrid core type */
	struct bt_cpuid l23;      /* perfmon extension: EAX valid subleaves, EBX UMASK2/EQ */
	struct bt_cpuid l23_1;    /* subleaf 1 (if CPUID.23H:EAX[1]): counter bitmaps */
	struct bt_cpuid l23_3;    /* subleaf 3 (if CPUID.23H:EAX[3]): architectural events */
	struct bt_cpuid e00;      /* max extended leaf */
	struct bt_cpuid e01;      /* AMD ECX[23] PerfCtrExtCore */
	struct bt_cpuid e22;      /* AMD PerfMonV2 */
};

/* Read the leaves above through the arch seam, honouring the maximum leaves. */
void bt_cpuid_collect(struct bt_arch *a, struct bt_cpuid_leaves *ret);

enum bt_vendor bt_cpuid_vendor(const struct bt_cpuid_leaves *l);
/* CPUID.01H:ECX[15]: IA32_PERF_CAPABILITIES exists. */
bool bt_cpuid_has_pdcm(const struct bt_cpuid_leaves *l);

/*
 * Decode the PMU capabilities from CPUID alone (Intel SDM vol. 2A CPUID leaf
 * 0AH and 23H; AMD APM vol. 3 CPUID Fn8000_0001 / Fn8000_0022). Intel
 * full-width writes and PERF_METRICS come from IA32_PERF_CAPABILITIES: apply
 * them with bt_pmu_caps_apply_perf_capabilities() after reading the MSR (only
 * when bt_cpuid_has_pdcm()).
 */
void bt_pmu_caps_from_cpuid(const struct bt_cpuid_leaves *l, struct bt_pmu_caps *ret);
void bt_pmu_caps_apply_perf_capabilities(struct bt_pmu_caps *caps, uint64_t value);

/*
 * The whole decoding, through the arch seam: the leaves above, then
 * IA32_PERF_CAPABILITIES where there is an Intel architectural PMU and
 * CPUID.01H:ECX[15] (PDCM) says the MSR exists (a read that faults leaves
 * the CPUID-only caps). No policy: bt_cpu_detect() adds what is decided on
 * top (AMD's legacy counters under a hypervisor, the reasons for "no PMU").
 * The one detection the driver and the tests of the simulated PMU use: the
 * tests compare its result with the simulated CPU's configuration, which is
 * written independently of this decoding.
 */
void bt_pmu_caps_detect(struct bt_arch *a, struct bt_pmu_caps *ret);

/*
 * The corrections in caps->quirks as sentences for the user, one per set
 * bit, in bit order: fills up to `max` entries of `out` and returns how
 * many; when there are more, the last entry says how many were not kept.
 */
unsigned bt_pmu_caps_notes(const struct bt_pmu_caps *caps, char (*out)[200], unsigned max);

/* What the architectural Top-Down model needs to know of this core
 * (known = false for a PMU that is not Intel architectural). */
void bt_arch_td_from_caps(const struct bt_pmu_caps *caps, struct bt_arch_td *ret);

/* Mask of the low `width` bits (width 1..64). */
static inline uint64_t bt_width_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

#endif

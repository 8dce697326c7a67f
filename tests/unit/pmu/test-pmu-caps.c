/* SPDX-License-Identifier: MIT */
/*
 * CPUID -> PMU capabilities, from hand-written leaves: the perfmon v6
 * counter bitmaps (review finding 8), the v2 fixed-counter quirk (14), and
 * the microarchitecture class the extra-MSR tables and PERF_METRICS field
 * count depend on (5, 10, 13). Expected classes are from Intel's perfmon
 * mapfile.csv (family-model -> event file).
 */
#include <string.h>

#include "pmu/intel-uarch.h"
#include "pmu/pmu-caps.h"
#include "tests/unit/lib/test.h"

static struct bt_cpuid_leaves intel(uint32_t signature, uint32_t l0a_eax, uint32_t l0a_edx)
{
	struct bt_cpuid_leaves l;
	memset(&l, 0, sizeof(l));
	l.l00.eax = 0x23;
	memcpy(&l.l00.ebx, "Genu", 4);
	memcpy(&l.l00.edx, "ineI", 4);
	memcpy(&l.l00.ecx, "ntel", 4);
	l.l01.eax = signature;
	l.l0a.eax = l0a_eax;
	l.l0a.edx = l0a_edx;
	return l;
}

/* Finding 14: early perfmon v2 parts may report no fixed counters in
 * CPUID.0AH:EDX although counters 0-2 exist; on bare metal baretop assumes
 * them (as Linux does), under a hypervisor it believes EDX. */
TEST(v2_with_no_fixed_counters_reported_assumes_three_on_bare_metal)
{
	/* v2, 2 counters of 40 bits, EDX = 0 */
	struct bt_cpuid_leaves l = intel(0x000006F6, 2 | 2 << 8 | 40 << 16 | 7u << 24, 0);
	struct bt_pmu_caps c;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_INT(c.kind, BT_PMU_INTEL_ARCH);
	CHECK_EQ_U64(c.fixed_mask, 0x7);
	CHECK_EQ_INT(c.fixed_width, 40);
	l.l01.ecx |= 1u << 31;                              /* hypervisor */
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.fixed_mask, 0);
	/* v5 uses the ECX bitmap: no quirk. */
	l = intel(0x000706E5, 5 | 8 << 8 | 48 << 16 | 7u << 24, 0);
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.fixed_mask, 0);
}

/* Finding 8: CPUID.23H subleaf 1 (valid when CPUID.23H:EAX[1]) gives the
 * general and fixed counters as bitmaps; they replace leaf 0AH's counts. */
TEST(leaf_23h_subleaf_1_bitmaps_replace_the_counts)
{
	struct bt_cpuid_leaves l = intel(0x000B06D1, 6 | 8 << 8 | 48 << 16 | 7u << 24,
					 4 | 48 << 5 | 1u << 15);
	l.l07_1.eax = 1u << 8;                              /* leaf 23H exists */
	l.l23.eax = 0x3;                                    /* subleaves 0, 1 */
	l.l23.ebx = 0x3;                                    /* UMASK2, EQ */
	l.l23_1.eax = 0x3F3;
	l.l23_1.ebx = 0x77;
	struct bt_pmu_caps c;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK(c.v6_counter_leaf && c.umask2 && c.eq);
	CHECK_EQ_U64(c.gp_mask, 0x3F3);
	CHECK_EQ_INT(c.num_gp, 10);
	CHECK_EQ_U64(c.fixed_mask, 0x77);
	CHECK_EQ_INT(c.num_fixed, 7);
	/* Subleaf 1 not valid (a VMM enumerating subleaf 0 only): leaf 0AH. */
	l.l23.eax = 0x1;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK(!c.v6_counter_leaf);
	CHECK_EQ_U64(c.gp_mask, 0xFF);
	CHECK_EQ_U64(c.fixed_mask, 0xF);
}

TEST(microarchitecture_classes_from_family_model_and_core_type)
{
	const struct { uint32_t model; uint8_t core_type; enum bt_intel_uarch want; } cases[] = {
		{ 0x0F, 0, BT_UARCH_CORE2 }, { 0x1A, 0, BT_UARCH_NHM }, { 0x2E, 0, BT_UARCH_NHM },
		{ 0x2C, 0, BT_UARCH_WSM_BDW }, { 0x3C, 0, BT_UARCH_WSM_BDW },
		{ 0x4F, 0, BT_UARCH_WSM_BDW }, { 0x5E, 0, BT_UARCH_SKL }, { 0x55, 0, BT_UARCH_SKL },
		{ 0xA5, 0, BT_UARCH_SKL }, { 0x7E, 0, BT_UARCH_ICL }, { 0x6A, 0, BT_UARCH_ICL },
		{ 0x8C, 0, BT_UARCH_ICL }, { 0xA7, 0, BT_UARCH_ICL }, { 0x8F, 0, BT_UARCH_GLC },
		{ 0xCF, 0, BT_UARCH_GLC }, { 0xAD, 0, BT_UARCH_RWC },
		{ 0x97, 0x40, BT_UARCH_GLC }, { 0x97, 0x20, BT_UARCH_ATOM },
		{ 0xBA, 0x40, BT_UARCH_GLC }, { 0xAA, 0x40, BT_UARCH_RWC },
		{ 0xAA, 0x20, BT_UARCH_ATOM }, { 0xBD, 0x40, BT_UARCH_LNC },
		{ 0xC6, 0x20, BT_UARCH_ATOM }, { 0xBE, 0, BT_UARCH_ATOM }, { 0xAF, 0, BT_UARCH_ATOM },
		{ 0x5C, 0, BT_UARCH_ATOM },
		/* Not verified: refused rather than guessed. */
		{ 0xCC, 0x40, BT_UARCH_UNKNOWN }, { 0xDD, 0, BT_UARCH_UNKNOWN },
		{ 0x97, 0, BT_UARCH_UNKNOWN },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_MSG(bt_intel_uarch_of(6, cases[i].model, cases[i].core_type) == cases[i].want,
			  "6-%02X core type 0x%02X: %s", cases[i].model, cases[i].core_type,
			  bt_intel_uarch_name(bt_intel_uarch_of(6, cases[i].model, cases[i].core_type)));
	CHECK_EQ_INT(bt_intel_uarch_of(0x18, 0x01, 0x40), BT_UARCH_UNKNOWN);
	/* Through CPUID: display model from the extended model field, the
	 * core type from leaf 1AH on a hybrid part. */
	struct bt_cpuid_leaves l = intel(0x00090672, 5 | 8 << 8 | 48 << 16 | 7u << 24, 4 | 48 << 5);
	l.l07.edx = 1u << 15;
	l.l1a.eax = 0x20u << 24 | 1;
	struct bt_pmu_caps c;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_INT(c.uarch, BT_UARCH_ATOM);
	l.l1a.eax = 0x40u << 24 | 1;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_INT(c.uarch, BT_UARCH_GLC);
	bt_pmu_caps_apply_perf_capabilities(&c, 1u << 15);
	CHECK(c.perf_metrics);
	CHECK_EQ_INT(c.perf_metrics_fields, 8);
	/* An unknown part with PERF_METRICS: the 4 level-1 fields only. */
	l = intel(0x000C06C1, 5 | 8 << 8 | 48 << 16 | 7u << 24, 4 | 48 << 5);
	bt_pmu_caps_from_cpuid(&l, &c);
	bt_pmu_caps_apply_perf_capabilities(&c, 1u << 15);
	CHECK_EQ_INT(c.uarch, BT_UARCH_UNKNOWN);
	CHECK_EQ_INT(c.perf_metrics_fields, 4);
}

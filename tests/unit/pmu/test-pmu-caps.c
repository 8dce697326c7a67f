/* SPDX-License-Identifier: MIT */
/*
 * CPUID -> PMU capabilities, from hand-written leaves: the perfmon v6
 * counter bitmaps, the v2 fixed-counter quirk, and the microarchitecture
 * class the extra-MSR tables and PERF_METRICS field count depend on. Expected classes are from Intel's perfmon
 * mapfile.csv (family-model -> event file).
 */
#include <string.h>

#include "pmu/intel-uarch.h"
#include "base/array.h"
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

/* Early perfmon v2 parts may report no fixed counters in
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

/* CPUID.23H subleaf 1 (valid when CPUID.23H:EAX[1]) gives the
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
		{ 0x2C, 0, BT_UARCH_WSM }, { 0x2A, 0, BT_UARCH_WSM_BDW }, { 0x3C, 0, BT_UARCH_WSM_BDW },
		{ 0x4F, 0, BT_UARCH_WSM_BDW }, { 0x5E, 0, BT_UARCH_SKL }, { 0x55, 0, BT_UARCH_SKL },
		{ 0xA5, 0, BT_UARCH_SKL }, { 0x7E, 0, BT_UARCH_ICL }, { 0x6A, 0, BT_UARCH_ICL },
		{ 0x8C, 0, BT_UARCH_ICL }, { 0xA7, 0, BT_UARCH_ICL }, { 0x8F, 0, BT_UARCH_GLC },
		{ 0xCF, 0, BT_UARCH_GLC }, { 0xAD, 0, BT_UARCH_RWC },
		{ 0x97, 0x40, BT_UARCH_GLC }, { 0x97, 0x20, BT_UARCH_ATOM },
		{ 0xBA, 0x40, BT_UARCH_GLC }, { 0xAA, 0x40, BT_UARCH_RWC },
		{ 0xAA, 0x20, BT_UARCH_ATOM }, { 0xBD, 0x40, BT_UARCH_LNC },
		{ 0xC6, 0x20, BT_UARCH_ATOM }, { 0xBE, 0, BT_UARCH_ATOM }, { 0xAF, 0, BT_UARCH_ATOM },
		{ 0x5C, 0, BT_UARCH_ATOM },
		/* Bartlett Lake (intel-family.h: Raptor Cove); Panther Lake takes
		 * Lunar Lake's PMU path in Linux intel_pmu_init() (lnl_common). */
		{ 0xD7, 0, BT_UARCH_GLC }, { 0xCC, 0x40, BT_UARCH_LNC }, { 0xCC, 0x20, BT_UARCH_ATOM },
		/* Not verified: refused rather than guessed. */
		{ 0xDD, 0, BT_UARCH_UNKNOWN },
		{ 0x97, 0, BT_UARCH_UNKNOWN },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++)
		CHECK_MSG(bt_intel_uarch_of(6, cases[i].model, cases[i].core_type) == cases[i].want,
			  "6-%02X core type 0x%02X: %s", cases[i].model, cases[i].core_type,
			  bt_intel_uarch_name(bt_intel_uarch_of(6, cases[i].model, cases[i].core_type)));
	CHECK_EQ_INT(bt_intel_uarch_of(0x18, 0x01, 0x40), BT_UARCH_UNKNOWN);
	/* Diamond Rapids is family 19 model 1 (intel-family.h
	 * INTEL_DIAMONDRAPIDS_X IFM(19, 0x01)): never read as a family 6 part. */
	CHECK_EQ_INT(bt_intel_uarch_of(19, 0x01, 0), BT_UARCH_UNKNOWN);
	CHECK_EQ_INT(bt_intel_uarch_of(19, 0xD7, 0), BT_UARCH_UNKNOWN);
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
	/* An unknown part with PERF_METRICS: the 4 level-1 fields only. A
	 * family 19 signature (base family FH + extended family 4, model 1:
	 * CPUID.01H:EAX = 00400F11h) decodes as display family 19h model 01h,
	 * whose class is unknown. */
	l = intel(0x00400F11, 5 | 8 << 8 | 48 << 16 | 7u << 24, 4 | 48 << 5);
	bt_pmu_caps_from_cpuid(&l, &c);
	bt_pmu_caps_apply_perf_capabilities(&c, 1u << 15);
	CHECK_EQ_INT(c.uarch, BT_UARCH_UNKNOWN);
	CHECK_EQ_INT(c.perf_metrics_fields, 4);
}

/* A hybrid part's leaves: leaf 7 EDX[15], leaf 1AH core type and native
 * model ID. */
static struct bt_cpuid_leaves hybrid_core(struct bt_cpuid_leaves l, uint8_t core_type,
					  uint32_t native_model)
{
	l.l07.edx |= 1u << 15;
	l.l1a.eax = (uint32_t)core_type << 24 | native_model;
	l.l01.ecx |= 1u << 15;                              /* PDCM */
	return l;
}

/* An i9-13900K's P-cores (GenuineIntel00B0671 in
 * ../shared/reference/cpuid) answer CPUID.0AH EAX=07300605h ECX=7
 * EDX=8603h: 6 general, 3 fixed, the counters the E-cores have too. Linux
 * intel_pmu_init() adds 2 general and fixed counter 3 for the big core and
 * sets PERF_METRICS there; the E-core keeps 6/3 and has no PERF_METRICS. */
TEST(adl_rpl_hybrid_p_core_gets_its_own_counters_and_perf_metrics)
{
	struct bt_cpuid_leaves base = intel(0x000B0671, 0x07300605, 0x00008603);
	base.l0a.ecx = 0x7;
	struct bt_pmu_caps c;

	struct bt_cpuid_leaves p = hybrid_core(base, 0x40, 1);
	bt_pmu_caps_from_cpuid(&p, &c);
	CHECK_EQ_U64(c.gp_mask, 0xFF);
	CHECK_EQ_INT(c.num_gp, 8);
	CHECK_EQ_U64(c.fixed_mask, 0xF);
	CHECK_EQ_INT(c.num_fixed, 4);
	CHECK(c.quirks & BT_PMU_QUIRK_HYBRID_BIG_COUNTERS);
	/* Whatever IA32_PERF_CAPABILITIES[15] says on this part. */
	bt_pmu_caps_apply_perf_capabilities(&c, 0);
	CHECK(c.perf_metrics);
	CHECK_EQ_INT(c.perf_metrics_fields, 8);

	struct bt_cpuid_leaves e = hybrid_core(base, 0x20, 1);
	bt_pmu_caps_from_cpuid(&e, &c);
	CHECK_EQ_U64(c.gp_mask, 0x3F);
	CHECK_EQ_U64(c.fixed_mask, 0x7);
	bt_pmu_caps_apply_perf_capabilities(&c, 1u << 15);
	CHECK(!c.perf_metrics);

	/* E-cores disabled in the BIOS: still hybrid, but leaf 0AH already
	 * gives 8 and 4 (+2/+1 would exceed 8/4): kept as enumerated. */
	struct bt_cpuid_leaves all = hybrid_core(intel(0x00090672, 0x08300805, 0x00008604),
						 0x40, 1);
	all.l0a.ecx = 0xF;
	bt_pmu_caps_from_cpuid(&all, &c);
	CHECK_EQ_U64(c.gp_mask, 0xFF);
	CHECK_EQ_U64(c.fixed_mask, 0xF);
	CHECK(c.quirks & BT_PMU_QUIRK_HYBRID_ALL_COUNTERS);

	/* A P-core-only Alder Lake (i5-12400, GenuineIntel0090672_AlderLake_02)
	 * is not hybrid: 8/4 from leaf 0AH, the P-core's class and PERF_METRICS
	 * (Linux adl_get_hybrid_cpu_type(): the big core). */
	struct bt_cpuid_leaves ponly = intel(0x00090672, 0x08300805, 0x00008604);
	ponly.l0a.ecx = 0xF;
	bt_pmu_caps_from_cpuid(&ponly, &c);
	CHECK_EQ_U64(c.gp_mask, 0xFF);
	CHECK_EQ_U64(c.fixed_mask, 0xF);
	CHECK_EQ_INT(c.uarch, BT_UARCH_GLC);
	bt_pmu_caps_apply_perf_capabilities(&c, 0);
	CHECK(c.perf_metrics);

	/* Under a hypervisor the VMM's leaf 0AH and MSR are believed. */
	p.l01.ecx |= 1u << 31;
	bt_pmu_caps_from_cpuid(&p, &c);
	bt_pmu_caps_apply_perf_capabilities(&c, 0);
	CHECK(!c.perf_metrics);
}

/* Meteor Lake's IA32_PERF_CAPABILITIES[15] always reads 0
 * (Linux intel_pmu_broken_perf_cap(), 6-AA / 6-AC): Redwood Cove has
 * PERF_METRICS all the same, Crestmont has none. Leaves from
 * GenuineIntel00A06A4_MeteorLake_10: leaf 23H exists, subleaf 1 gives the
 * counters. On Lunar Lake (6-BD) the bit is read per core as it is. */
TEST(meteor_lake_perf_capabilities_bit_15_is_not_believed)
{
	struct bt_cpuid_leaves base = intel(0x000A06A4, 0x07300805, 0x00008603);
	base.l0a.ecx = 0x7;
	base.l07_1.eax = 0x40400910;
	base.l23.eax = 0x0B;
	struct bt_pmu_caps c;

	struct bt_cpuid_leaves p = hybrid_core(base, 0x40, 2);
	p.l23_1.eax = 0xFF;
	p.l23_1.ebx = 0x0F;
	bt_pmu_caps_from_cpuid(&p, &c);
	CHECK_EQ_U64(c.gp_mask, 0xFF);
	CHECK_EQ_U64(c.fixed_mask, 0xF);
	bt_pmu_caps_apply_perf_capabilities(&c, 0);        /* bit 15 reads 0 */
	CHECK(c.perf_metrics);
	CHECK_EQ_INT(c.perf_metrics_fields, 8);
	CHECK(c.quirks & BT_PMU_QUIRK_PM_BIT_BROKEN);

	struct bt_cpuid_leaves e = hybrid_core(base, 0x20, 2);
	e.l23_1.eax = 0xFF;
	e.l23_1.ebx = 0x07;
	bt_pmu_caps_from_cpuid(&e, &c);
	CHECK_EQ_U64(c.fixed_mask, 0x7);
	bt_pmu_caps_apply_perf_capabilities(&c, 1u << 15);
	CHECK(!c.perf_metrics);

	/* Lunar Lake P-core: the bit as read, both ways. */
	struct bt_cpuid_leaves lnl = hybrid_core(intel(0x000B06D1, 0x0D300806, 0x00008603), 0x40, 3);
	lnl.l0a.ecx = 0x7;
	lnl.l07_1.eax = 0x44C009D7;
	lnl.l23.eax = 0x0B;
	lnl.l23_1.eax = 0x3FF;
	lnl.l23_1.ebx = 0x0F;
	bt_pmu_caps_from_cpuid(&lnl, &c);
	bt_pmu_caps_apply_perf_capabilities(&c, 0);
	CHECK(!c.perf_metrics);
	bt_pmu_caps_apply_perf_capabilities(&c, 1u << 15);
	CHECK(c.perf_metrics);
}

/* Below perfmon version 6 general counter i is
 * IA32_PERFEVTSELi = 0x186 + i / IA32_PMCi = 0xC1 + i, defined for i < 8
 * only (SDM vol. 4 table 2-2). An Arrow Lake H Lion Cove core
 * (GenuineIntel00C0652_ArrowLakeH_04) is version 5 with CPUID.23H.01H:EAX =
 * 3FFh: baretop uses 8, and says so. Version 6 keeps all 10. */
TEST(more_than_eight_general_counters_below_v6_are_clamped)
{
	struct bt_cpuid_leaves l = hybrid_core(intel(0x000C0652, 0x07300805, 0x00008603), 0x40, 3);
	l.l0a.ecx = 0x7;
	l.l07_1.eax = 0x44C009D0;
	l.l23.eax = 0x0B;
	l.l23_1.eax = 0x3FF;
	l.l23_1.ebx = 0x0F;
	struct bt_pmu_caps c;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.gp_mask, 0xFF);
	CHECK_EQ_INT(c.num_gp, 8);
	CHECK_EQ_INT(c.enumerated_gp, 10);
	CHECK(c.quirks & BT_PMU_QUIRK_GP_CLAMPED);
	char notes[8][200];
	unsigned n = bt_pmu_caps_notes(&c, notes, 8);
	bool said = false;
	for (unsigned i = 0; i < n; i++)
		said |= strstr(notes[i], "10 general counters") != NULL;
	CHECK(said);
	/* Leaf 0AH alone saying 12 on a v4 part: clamped too. */
	l = intel(0x000506E3, 0x07300C04, 0x00000603);
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.gp_mask, 0xFF);
	/* Version 6: the v6 MSR range has them all. */
	l = hybrid_core(intel(0x000C0662, 0x0D300806, 0x00008603), 0x40, 3);
	l.l0a.ecx = 0x7;
	l.l07_1.eax = 0x44C009D7;
	l.l23.eax = 0x0B;
	l.l23_1.eax = 0x3FF;
	l.l23_1.ebx = 0x0F;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.gp_mask, 0x3FF);
	CHECK(!(c.quirks & BT_PMU_QUIRK_GP_CLAMPED));
}

/* More corrections than the caller has room for: the last entry says how
 * many were not kept instead of the list ending silently. */
TEST(caps_notes_past_the_room_say_how_many_more)
{
	struct bt_pmu_caps c;
	memset(&c, 0, sizeof(c));
	c.quirks = BT_PMU_QUIRK_HYBRID_BIG_COUNTERS | BT_PMU_QUIRK_PM_ASSUMED |
		   BT_PMU_QUIRK_PM_BIT_BROKEN;
	char notes[2][200];
	unsigned n = bt_pmu_caps_notes(&c, notes, 2);
	CHECK_EQ_INT(n, 2);
	CHECK(strstr(notes[0], "Alder/Raptor Lake P-core") != NULL);
	CHECK_MSG(strcmp(notes[1], "... and 2 more notes not kept") == 0, "got '%s'", notes[1]);
	char all[8][200];
	CHECK_EQ_INT(bt_pmu_caps_notes(&c, all, 8), 3);
	CHECK(strstr(all[2], "Meteor Lake") != NULL);
}

/* Architectural events (SDM vol. 3B "Pre-defined Architectural Performance
 * Events"; CPUID leaves 0AH and 23H), expected values worked out by hand
 * from the real parts' leaves in ../shared/reference/cpuid/. */
TEST(architectural_events_from_leaf_0a_and_23h_subleaf_3)
{
	/* Ice Lake / Granite Rapids leaf 0AH: 08300805h, EBX 0: length 8,
	 * events 0-7 (7 = Topdown Slots); no leaf 23H: SLOTS_PER_CYC 0. */
	struct bt_cpuid_leaves l = intel(0x000A06D1, 0x08300805, 0x8604);
	l.l0a.ecx = 0xF;
	struct bt_pmu_caps c;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0xFF);
	CHECK(!c.arch_events_23h);
	CHECK_EQ_INT(c.slots_per_cycle, 0);
	/* Granite Rapids with leaf 23H (CPUID.(07H,1):EAX[8], 23H.0 EAX 0Bh:
	 * subleaves 0, 1, 3): 23H.3 = 0DFFh replaces it, events 0-8, 10, 11. */
	l.l07_1.eax = 1u << 8;
	l.l23.eax = 0xB;
	l.l23_1.eax = 0xFF;
	l.l23_1.ebx = 0xF;
	l.l23_3.eax = 0xDFF;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0xDFF);
	CHECK(c.arch_events_23h);
	/* Leaf 23H without CPUID.(07H,1):EAX[8] does not exist: 0AH's. */
	l.l07_1.eax = 0;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0xFF);
	/* Subleaf 3 not listed in 23H.0 EAX: 0AH's. */
	l.l07_1.eax = 1u << 8;
	l.l23.eax = 0x3;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0xFF);
	CHECK(!c.arch_events_23h);
	/* Lunar Lake E-core (Skymont): 0AH 0D300806h EBX 280h: length 13,
	 * events 7 and 9 not available in both kinds -> 1D7Fh; 23H.0 0Fh,
	 * ECX 8 (SLOTS_PER_CYC); 23H.3 1F7Fh: no Topdown Slots, Bad
	 * Speculation yes. */
	l = intel(0x000B06D1, 0x0D300806, 0x8603);
	l.l0a.ebx = 0x280;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0x1D7F);
	l.l07_1.eax = 1u << 8;
	l.l23 = (struct bt_cpuid){ 0xF, 0x3, 0x8, 0 };
	l.l23_1 = (struct bt_cpuid){ 0xFF, 0x77, 0, 0 };
	l.l23_3.eax = 0x1F7F;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0x1F7F);
	CHECK_EQ_INT(c.slots_per_cycle, 8);
	/* Crestmont LP-E of Arrow Lake H: 0AH 07300805h (length 7), 23H.0
	 * ECX 6, 23H.3 7Fh: no architectural Top-Down event. */
	l = intel(0x000C0652, 0x07300805, 0x8603);
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0x7F);
	l.l07_1.eax = 1u << 8;
	l.l23 = (struct bt_cpuid){ 0xB, 0, 0x6, 0 };
	l.l23_3.eax = 0x7F;
	bt_pmu_caps_from_cpuid(&l, &c);
	CHECK_EQ_U64(c.arch_events, 0x7F);
	CHECK_EQ_INT(c.slots_per_cycle, 6);
	/* The encodings of the SDM's table. */
	CHECK_EQ_INT(bt_arch_event(BT_ARCH_EV_TD_SLOTS)->code, 0xA4);
	CHECK_EQ_INT(bt_arch_event(BT_ARCH_EV_TD_SLOTS)->umask, 0x01);
	CHECK_EQ_INT(bt_arch_event(BT_ARCH_EV_TD_BE_BOUND)->umask, 0x02);
	CHECK_EQ_INT(bt_arch_event(BT_ARCH_EV_TD_BAD_SPEC)->code, 0x73);
	CHECK_EQ_INT(bt_arch_event(BT_ARCH_EV_TD_FE_BOUND)->code, 0x9C);
	CHECK_EQ_INT(bt_arch_event(BT_ARCH_EV_TD_RETIRING)->code, 0xC2);
	CHECK_EQ_INT(bt_arch_event(BT_ARCH_EV_TD_RETIRING)->umask, 0x02);
	CHECK_EQ_INT(bt_arch_event(12)->code, 0xE4);
	CHECK(bt_arch_event(BT_ARCH_EV_COUNT) == NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The SMT sibling probe's arithmetic and plan (pmu/sibling.h, plan.h
 * sibling_gp) and the reference clock each part enumerates
 * (pmu-caps.c xclk_ratio). Expected values from the sources, not from
 * baretop's output: the TSC-per-REF_XCLK ratios from the parts' own CPUID
 * dumps (../shared/reference/cpuid: CPUID.15H EBX/EAX, the brand string's
 * "@ 3.50GHz" for MSR_PLATFORM_INFO[15:8], SDM vol. 4 "Frequency = ratio *
 * 100 MHz"), the fraction from Linux perf's tma_info_core_core_clks
 * (ONE_THREAD_ACTIVE / REF_XCLK), the counters from the event tables.
 */
#include <math.h>

#include "arch/sim/sim.h"
#include "base/array.h"
#include "pmu/measure.h"
#include "pmu/msr.h"
#include "pmu/plan.h"
#include "pmu/pmu-caps.h"
#include "pmu/sibling.h"
#include "synth/count-sources.h"
#include "tests/unit/lib/test.h"

/* An Ivy Bridge .. Cascade Lake PMU with SMT on: 4 general counters,
 * fixed 0-2, the probe asked for. */
static struct bt_pmu_caps skl_caps(void)
{
	struct bt_pmu_caps c;

	memset(&c, 0, sizeof(c));
	c.kind = BT_PMU_INTEL_ARCH;
	c.version = 4;
	c.num_gp = 4;
	c.gp_mask = 0xF;
	c.gp_width = 48;
	c.num_fixed = 3;
	c.fixed_mask = 0x7;
	c.fixed_width = 48;
	c.sibling_probe = true;
	return c;
}

TEST(one_counter_reserved_where_fixed_counter_2_counts)
{
	struct bt_pmu_caps c = skl_caps();
	int ota, xclk;

	CHECK_EQ_U64(bt_plan_sibling_gp(&c, &ota, &xclk), 0x1);
	CHECK_EQ_INT(ota, 0);
	CHECK_EQ_INT(xclk, -1);
	/* the health check left counter 0 out: counter 3, the least wanted */
	c.gp_mask = 0xE;
	CHECK_EQ_U64(bt_plan_sibling_gp(&c, &ota, &xclk), 0x8);
	CHECK_EQ_INT(ota, 3);
	/* two counters left for the events at least */
	c.gp_mask = 0x3;
	CHECK_EQ_U64(bt_plan_sibling_gp(&c, &ota, &xclk), 0);
	CHECK_EQ_INT(ota, -1);
	/* without fixed counter 2, REF_XCLK takes a counter of its own */
	c = skl_caps();
	c.fixed_mask = 0x3;
	CHECK_EQ_U64(bt_plan_sibling_gp(&c, &ota, &xclk), 0x9);
	CHECK_EQ_INT(ota, 0);
	CHECK_EQ_INT(xclk, 3);
	/* PERF_METRICS parts count the slots per thread: no probe */
	c = skl_caps();
	c.fixed_mask = 0xF;
	c.perf_metrics = true;
	CHECK_EQ_U64(bt_plan_sibling_gp(&c, &ota, &xclk), 0);
	c = skl_caps();
	c.sibling_probe = false;
	CHECK_EQ_U64(bt_plan_sibling_gp(&c, &ota, &xclk), 0);
}

/* Four plain events: 3 general counters left, so REF_XCLK fits the second
 * group of 2 events (bound 2 either way); three events fill one group
 * (bound 1, 2 with REF_XCLK). */
TEST(the_check_joins_a_plan_only_where_it_costs_no_group)
{
	static struct bt_event ev[4];
	static struct bt_plan_scratch scratch;
	static struct bt_plan plan;
	const struct bt_event *evp[8];
	struct bt_pmu_caps c = skl_caps();

	for (int i = 0; i < 4; i++) {
		ev[i] = (struct bt_event){ .name = "E", .source = BT_SRC_PMC,
					   .code = (uint16_t)(0xA0 + i), .umask = 1,
					   .fixed = BT_EV_NO_FIXED, .counters = 0xF };
		evp[i] = &ev[i];
	}
	c.tsc_per_xclk_num = 276;
	c.tsc_per_xclk_den = 2;
	CHECK_EQ_INT(bt_sibling_add_check(evp, 4, &c, NULL, &scratch), 5);
	CHECK(evp[4] == &bt_sibling_xclk_event);
	CHECK(bt_plan_events(evp, 5, &c, NULL, &scratch, &plan) == BT_OK);
	CHECK_EQ_INT(plan.n_groups, 2);
	CHECK(plan.has_sibling_gp && !plan.has_xclk_gp && plan.ota_gp == 0);
	for (int g = 0; g < plan.n_groups; g++)
		for (int k = 0; k < plan.groups[g].n_gp; k++)
			CHECK(plan.groups[g].gp[k].counter != 0);
	CHECK_EQ_INT(bt_sibling_add_check(evp, 3, &c, NULL, &scratch), 3);
	/* a part that enumerates no ratio: the count is the only one */
	c.tsc_per_xclk_num = c.tsc_per_xclk_den = 0;
	CHECK_EQ_INT(bt_sibling_add_check(evp, 3, &c, NULL, &scratch), 4);
	/* REF_XCLK counted in every group already: no check */
	c = skl_caps();
	c.fixed_mask = 0x3;
	CHECK_EQ_INT(bt_sibling_add_check(evp, 2, &c, NULL, &scratch), 2);
}

static struct bt_measure_run run(uint64_t ota, uint64_t tsc, long xclk)
{
	struct bt_measure_run r;

	memset(&r, 0, sizeof(r));
	r.has_sibling = true;
	r.one_thread_active = ota;
	r.has_ref_tsc = tsc > 0;
	r.ref_tsc = tsc;
	r.has_xclk = xclk >= 0;
	r.ref_xclk = xclk >= 0 ? (uint64_t)xclk : 0;
	return r;
}

/* Runs of 13800 TSC ticks: 100 reference ticks at 138 TSC ticks each
 * (Skylake-SP's CPUID.15H, 276/2). */
TEST(pooled_over_runs_at_the_ratio)
{
	struct bt_pmu_caps c = skl_caps();
	struct bt_sibling_sums s = { 0 };
	struct bt_xclk_ratio x;
	struct bt_measure_run r[4] = {
		run(100, 13800, -1),  /* sibling idle */
		run(0, 13800, -1),    /* busy */
		run(50, 13800, 100),  /* half, and the ratio's check: 13800 / 100 */
		run(0, 0, -1),
	};

	r[3].has_sibling = false; /* not probed: left out */
	r[3].one_thread_active = 999;
	c.tsc_per_xclk_num = 276;
	c.tsc_per_xclk_den = 2;
	c.tsc_per_xclk_from = "CPUID.15H EBX/EAX";
	for (int i = 0; i < 4; i++)
		bt_sibling_add(&s, &r[i]);
	CHECK(s.probed);
	CHECK_EQ_U64(s.ota, 150);
	CHECK_EQ_U64(s.ref_tsc, 3 * 13800);
	CHECK_EQ_U64(s.check_xclk, 100);
	bt_xclk_ratio_decide(&c, &s, &x);
	CHECK(x.used == 138 && !x.disagrees && x.counted == 138);
	CHECK(strcmp(x.from, "CPUID.15H EBX/EAX") == 0);
	/* 1 - 150 / 300 */
	CHECK(fabs(bt_sibling_active(&s, x.used) - 0.5) < 1e-15);
	/* no ratio at all: REF_XCLK cannot be derived */
	CHECK(isnan(bt_sibling_active(&s, NAN)));
	struct bt_sibling_sums none = { 0 };
	CHECK(isnan(bt_sibling_active(&none, 138)));
}

TEST(the_count_checks_the_enumerated_ratio)
{
	struct bt_pmu_caps c = skl_caps();
	struct bt_xclk_ratio x;

	c.tsc_per_xclk_num = 34;
	c.tsc_per_xclk_den = 1;
	c.tsc_per_xclk_from = "MSR_PLATFORM_INFO[15:8]";
	/* the tolerance: 1 % plus one tick per run (2 runs, 1985 ticks:
	 * 0.1 %); 68000 / 1985 = 34.26 is 0.8 % off, within */
	struct bt_sibling_sums s = { .probed = true, .ota = 0, .ref_tsc = 68000,
				     .check_tsc = 68000, .check_xclk = 1985, .check_runs = 2 };
	bt_xclk_ratio_decide(&c, &s, &x);
	CHECK_MSG(!x.disagrees && x.used == 34, "counted %g: disagrees %d", x.counted, x.disagrees);
	s.check_xclk = 2034; /* 68000 / 2034 = 33.43: 1.7 % off */
	bt_xclk_ratio_decide(&c, &s, &x);
	CHECK(x.disagrees && x.used == x.counted && strcmp(x.from, "counted") == 0);
	CHECK(fabs(x.enumerated - 34) < 1e-12);
	/* not enumerated: the count */
	c.tsc_per_xclk_num = 0;
	bt_xclk_ratio_decide(&c, &s, &x);
	CHECK(!x.disagrees && x.used == x.counted && isnan(x.enumerated));
	/* neither */
	s.check_xclk = s.check_tsc = 0;
	bt_xclk_ratio_decide(&c, &s, &x);
	CHECK(isnan(x.used) && !x.from);
}

/* Without fixed counter 2 every run counts REF_XCLK itself. */
TEST(counted_ref_xclk_without_fixed_counter_2)
{
	struct bt_sibling_sums s = { 0 };
	struct bt_measure_run a = run(30, 0, 100), b = run(90, 0, 100);

	bt_sibling_add(&s, &a);
	bt_sibling_add(&s, &b);
	CHECK_EQ_U64(s.xclk, 200);
	CHECK_EQ_U64(s.check_xclk, 0);
	CHECK(fabs(bt_sibling_active(&s, NAN) - 0.4) < 1e-15);
	/* ONE_THREAD_ACTIVE above REF_XCLK (edges): an idle sibling, not < 0 */
	struct bt_measure_run c = run(120, 0, 100);
	struct bt_sibling_sums t = { 0 };
	bt_sibling_add(&t, &c);
	CHECK(bt_sibling_active(&t, NAN) == 0);
}

/* Detection through each simulated part, which answers CPUID as the real
 * part did and MSR_PLATFORM_INFO with its brand string's base ratio. */
TEST(each_part_enumerates_its_reference_clock)
{
	static const struct {
		const char *model;
		uint32_t num, den;
		const char *from;
	} want[] = {
		/* i7-3770K @ 3.50GHz, i7-4770 @ 3.40GHz: no leaf 15H (max 0DH) */
		{ "IVB", 35, 1, "MSR_PLATFORM_INFO[15:8]" },
		{ "HSW", 34, 1, "MSR_PLATFORM_INFO[15:8]" },
		/* i7-8700K: CPUID.15H EAX=2 EBX=134H; i9-7900X: EAX=2 EBX=114H */
		{ "SKL", 0x134, 2, "CPUID.15H EBX/EAX" },
		{ "SKX", 0x114, 2, "CPUID.15H EBX/EAX" },
		/* Ice Lake and later: no probe, no table */
		{ "ICL", 0, 0, NULL },
		{ "ZEN4", 0, 0, NULL },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(want); i++) {
		struct bt_sim_config cfg;
		static struct bt_sim sim;
		struct bt_pmu_caps caps;

		CHECK(bt_sim_config_for_model(want[i].model, &cfg));
		CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
		bt_pmu_caps_detect(&sim.arch, &caps);
		CHECK_MSG(caps.tsc_per_xclk_num == want[i].num && caps.tsc_per_xclk_den == want[i].den,
			  "%s: %u/%u, want %u/%u", want[i].model, caps.tsc_per_xclk_num,
			  caps.tsc_per_xclk_den, want[i].num, want[i].den);
		CHECK_MSG(want[i].from ? caps.tsc_per_xclk_from &&
			  strcmp(caps.tsc_per_xclk_from, want[i].from) == 0 : !caps.tsc_per_xclk_from,
			  "%s: from %s", want[i].model, caps.tsc_per_xclk_from);
		/* and the sim counts REF_XCLK at the clock it states */
		uint32_t n, d;
		CHECK_EQ_INT(bt_sim_tsc_per_xclk(&cfg, &n, &d), want[i].num != 0);
		CHECK(!want[i].num || (n == want[i].num && d == want[i].den));
		bt_sim_free(&sim);
	}
}

/* A Haswell whose MSR_PLATFORM_INFO reads 0, as every MSR does under QEMU:
 * not enumerated (the count then decides), not a ratio of 0. */
TEST(a_platform_info_of_zero_enumerates_nothing)
{
	struct bt_sim_config cfg;
	static struct bt_sim sim;
	struct bt_pmu_caps caps;
	static const struct bt_sim_cpuid_part *hsw = &bt_sim_part_hsw;
	struct bt_sim_cpuid_part zero;

	CHECK(bt_sim_config_for_model("HSW", &cfg));
	zero = *hsw;
	zero.base_ratio = 0; /* the sim then faults the read, as a part without it */
	cfg.part = &zero;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	uint64_t v = 1;
	CHECK(bt_rdmsr(&sim.arch, MSR_PLATFORM_INFO, &v) != BT_OK);
	bt_pmu_caps_detect(&sim.arch, &caps);
	CHECK(caps.kind == BT_PMU_INTEL_ARCH && !caps.tsc_per_xclk_num && !caps.tsc_per_xclk_from);
	bt_sim_free(&sim);
}

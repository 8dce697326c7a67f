/* SPDX-License-Identifier: MIT */
/*
 * The driver's register traffic checked against literal values written
 * here from the manuals (not from pmu/msr.h, which the driver uses, nor
 * arch/sim/sim-regs.h, which the sim uses): a wrong address or bit in either
 * header shows up here, and so does the perfmon v6 MSR range.
 *
 *   IA32_PERFEVTSEL0 0x186, IA32_PMC0 0xC1, IA32_A_PMC0 0x4C1, IA32_FIXED_CTR0
 *   0x309, IA32_FIXED_CTR_CTRL 0x38D (4 bits per counter, OS=1 USR=2),
 *   IA32_PERF_GLOBAL_CTRL 0x38F (PMCn bit n, FIXED_CTRi bit 32+i,
 *   PERF_METRICS bit 48), MSR_PERF_METRICS 0x329; RDPMC ECX 0x40000000|i for
 *   fixed counter i, 0x20000000 for PERF_METRICS (SDM vol. 2B RDPMC, vol. 3B
 *   ch. 20, vol. 4 Table 2-2). v6: GP counter n at 0x1900+4n, its selector
 *   at 0x1901+4n, fixed counter n at 0x1980+4n (Linux msr-index.h
 *   MSR_IA32_PMC_V6_*). AMD: PerfEvtSel n 0xC0010200+2n, PerfCtr n
 *   0xC0010201+2n, legacy 0xC0010000+n / 0xC0010004+n, PerfCntrGlobalCtl
 *   0xC0000301, EventSelect[11:8] in PerfEvtSel[35:32] (APM vol. 2 §13.2).
 */
#include "pmu/pmu-caps.h"
#include "base/array.h"
#include "pmu/pmu-session.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_sim sim;

static bool wrote(uint32_t msr, uint64_t value)
{
	for (size_t i = 0; i < sim.log_len; i++)
		if (sim.log[i].op == BT_SIM_WRMSR && sim.log[i].index == msr &&
		    sim.log[i].value == value)
			return true;
	return false;
}

static bool touched(uint32_t msr)
{
	for (size_t i = 0; i < sim.log_len; i++)
		if ((sim.log[i].op == BT_SIM_WRMSR || sim.log[i].op == BT_SIM_RDMSR) &&
		    sim.log[i].index == msr)
			return true;
	return false;
}

static bool rdpmc(uint32_t ecx)
{
	return bt_sim_log_find(&sim, 0, BT_SIM_RDPMC, ecx) >= 0;
}

/* The value written by the counting window's start write. */
static uint64_t start_value(uint32_t msr)
{
	long b = bt_sim_log_find(&sim, 0, BT_SIM_WINDOW_BEGIN, msr);
	CHECK(b > 0);
	return b > 0 ? sim.log[b].value : 0;
}

static int four_plus_fixed(struct bt_event *ev)
{
	int n = 0;
	ev[n++] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0x00, 0, 0);
	ev[n++] = fx_fixed("CPU_CLK_UNHALTED.THREAD", 0x3C, 0x00, 1, 0);
	ev[n++] = fx_fixed("CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, 2, 0);
	ev[n++] = fx_gp("A", 0x0E, 0x01, 0, 0xF);
	ev[n++] = fx_gp("B", 0xC2, 0x02, 0, 0xF);
	ev[n++] = fx_gp("C", 0x9C, 0x01, 0, 0xF);
	ev[n++] = fx_gp("D", 0x0D, 0x01, 0, 0xF);
	return n;
}

TEST(intel_v4_writes_and_reads_literally)
{
	struct bt_event ev[8];
	int n = four_plus_fixed(ev);
	struct fx_outcome o = fx_measure(&sim, bt_sim_preset("skl"), ev, n, NULL);
	CHECK_MSG(fx_clean(&o), "%s", o.msg);
	CHECK(wrote(0x38F, 0));                            /* stopped at open */
	CHECK(wrote(0x38D, 0x333));                        /* fixed 0-2: OS|USR */
	CHECK_EQ_U64(start_value(0x38F), 0x70000000Full);  /* PMC0-3, FIXED_CTR0-2 */
	for (uint32_t i = 0; i < 4; i++) {
		CHECK(wrote(0x4C1 + i, 0));                /* full-width writes */
		CHECK(touched(0x186 + i));
		CHECK(rdpmc(i));
	}
	for (uint32_t i = 0; i < 3; i++) {
		CHECK(wrote(0x309 + i, 0));
		CHECK(rdpmc(0x40000000u + i));
	}
	/* The selectors: event | umask << 8 | USR (16) | OS (17) | EN (22). */
	CHECK(wrote(0x186, 0x43010E) || wrote(0x187, 0x43010E) || wrote(0x188, 0x43010E) ||
	      wrote(0x189, 0x43010E));
	bt_sim_free(&sim);
}

TEST(intel_without_full_width_writes_uses_ia32_pmcx)
{
	struct bt_event ev[8];
	int n = four_plus_fixed(ev);
	struct bt_pmu_session_opts opts = { .counter_start = 0xFFFF80000000ull };
	struct fx_outcome o = fx_measure(&sim, bt_sim_preset("nhm"), ev, n, &opts);
	CHECK_MSG(fx_clean(&o), "%s", o.msg);
	/* 32-bit write of the low half; the counter sign-extends bit 31. */
	CHECK(wrote(0xC1, 0x80000000ull));
	CHECK(!touched(0x4C1));
	bt_sim_free(&sim);
}

TEST(intel_perf_metrics_literally)
{
	struct bt_event ev[16];
	int n = 0;
	ev[n++] = fx_fixed("TOPDOWN.SLOTS", 0x00, 0x04, 3, 0);
	ev[n++] = fx_pm("PERF_METRICS.RETIRING", BT_PM_RETIRING);
	for (int i = 0; i < 8; i++) {
		static char names[8][16];
		snprintf(names[i], sizeof(names[i]), "E%d", i);
		ev[n++] = fx_gp(names[i], (uint16_t)(0x10 + i), 0x01, 0, 0xFF);
	}
	struct fx_outcome o = fx_measure(&sim, bt_sim_preset("icl"), ev, n, NULL);
	CHECK_MSG(fx_clean(&o), "%s", o.msg);
	CHECK(wrote(0x38D, 0x3333));
	CHECK_EQ_U64(start_value(0x38F), 0x1000F000000FFull); /* bit 48, fixed 0-3, PMC0-7 */
	CHECK(rdpmc(0x20000000u));
	long slots = bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, 0x30C);
	long pm = bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, 0x329);
	CHECK(slots >= 0 && pm > slots && sim.log[slots].value == 0 && sim.log[pm].value == 0);
	bt_sim_free(&sim);
}

TEST(amd_writes_literally)
{
	struct bt_event ev[2] = {
		fx_gp("de_no_dispatch_per_slot.no_ops_from_frontend", 0x1A0, 0x01, 0, 0x3F),
		fx_gp("ls_not_halted_cyc", 0x76, 0x00, 0, 0x3F),
	};
	struct fx_outcome o = fx_measure(&sim, bt_sim_preset("zen4"), ev, 2, NULL);
	CHECK_MSG(fx_clean(&o), "%s", o.msg);
	bool hi = false;
	for (size_t i = 0; i < sim.log_len; i++)
		if (sim.log[i].op == BT_SIM_WRMSR && sim.log[i].index >= 0xC0010200 &&
		    sim.log[i].index < 0xC001020C && !(sim.log[i].index & 1) &&
		    (sim.log[i].value & 0xFFFF) == 0x01A0)
			hi |= (sim.log[i].value >> 32 & 0xF) == 1;  /* EventSelect[11:8] */
	CHECK(hi);
	/* Every AMD group also counts Retired Instructions
	 * (PMCx0C0) on the highest counter and, Zen 4 having PMCx02B (Linux
	 * perf amdzen4/core.json ls_smi_rx), SMIs Received on the next: the
	 * selectors at 0xC0010200 + 2n hold EventSelect | USR (16) | OS (17) |
	 * En (22, set at programming with PerfMonV2), and both counters start
	 * with the events' (counters 0, 1 and 4, 5 in PerfCntrGlobalCtl). */
	CHECK_EQ_U64(start_value(0xC0000301), 0x33);       /* PerfCntrGlobalCtl */
	CHECK(wrote(0xC001020A, 0xC0 | 1ull << 16 | 1ull << 17 | 1ull << 22));
	CHECK(wrote(0xC0010208, 0x2B | 1ull << 16 | 1ull << 17 | 1ull << 22));
	bt_sim_free(&sim);

	o = fx_measure(&sim, bt_sim_preset("amd-legacy"), ev, 2, NULL);
	CHECK_MSG(fx_clean(&o), "%s", o.msg);
	CHECK(touched(0xC0010000) && touched(0xC0010004));
	for (uint32_t m = 0xC0010200; m < 0xC001020C; m++)
		CHECK(!touched(m));
	/* Family 10h: no PMCx02B in the lists; retired instructions on legacy
	 * counter 3, started by its En (22) like the others. */
	CHECK(wrote(0xC0010003, 0xC0 | 1ull << 16 | 1ull << 17 | 1ull << 22));
	CHECK(!wrote(0xC0010002, 0x2B | 1ull << 16 | 1ull << 17 | 1ull << 22));
	bt_sim_free(&sim);
}

/* Perfmon v6 counters through 0x1900 + 4n / 0x1901 + 4n /
 * 0x1980 + 4n; counters 8 and 9 have no legacy address (0xC9, 0x18E, 0x4C9
 * are not IA32_PMC8 / PERFEVTSEL8 / A_PMC8: the SDM defines eight). */
TEST(v6_counters_use_the_19xx_range)
{
	static struct bt_event ev[FX_MAX];
	const struct bt_sim_config *c = bt_sim_preset("lnl-p");
	struct bt_pmu_caps caps;
	CHECK(bt_sim_init(&sim, c) == BT_OK);
	bt_pmu_caps_detect(&sim.arch, &caps);
	bt_sim_free(&sim);
	CHECK_EQ_U64(caps.gp_mask, 0x3FF);                 /* CPUID.23H.01H:EAX */
	CHECK_EQ_U64(caps.fixed_mask, 0xF);                /* CPUID.23H.01H:EBX */
	CHECK(caps.v6_counter_leaf);
	int n = fx_set_for(c, ev);
	struct fx_outcome o = fx_measure(&sim, c, ev, n, NULL);
	CHECK_MSG(fx_clean(&o) && o.unmeasured == 0, "%s | %s", o.msg, o.reason);
	CHECK(touched(0x1900 + 4 * 8 + 1) && touched(0x1900 + 4 * 9 + 1)); /* CFG_A 8, 9 */
	CHECK(touched(0x1900 + 4 * 8) && touched(0x1900 + 4 * 9));         /* CTR 8, 9 */
	CHECK(rdpmc(8) || rdpmc(9));
	CHECK(touched(0x1980) && touched(0x198C));                          /* FX 0, 3 */
	const uint32_t never[] = { 0xC9, 0xCA, 0x18E, 0x18F, 0x4C9, 0x4CA, 0x186, 0xC1, 0x4C1, 0x309 };
	for (size_t i = 0; i < BT_ARRAY_SIZE(never); i++)
		CHECK_MSG(!touched(never[i]), "touched 0x%X", never[i]);
	bt_sim_free(&sim);
}

/* CPUID.23H.01H may enumerate counters with gaps: the caps follow the
 * bitmap and the plan never uses a missing counter. */
TEST(v6_counter_bitmap_with_gaps)
{
	struct bt_sim_config c = *bt_sim_preset("lnl-p");
	c.gp_bitmap = 0x3F3;                               /* no counters 2, 3 */
	c.part = NULL; /* no real part has gaps: CPUID made up from the fields */
	struct bt_pmu_caps caps;
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	bt_pmu_caps_detect(&sim.arch, &caps);
	bt_sim_free(&sim);
	CHECK_EQ_U64(caps.gp_mask, 0x3F3);
	CHECK_EQ_INT(caps.num_gp, 10);
	static struct bt_event ev[FX_MAX];
	int n = fx_set_for(&c, ev);
	struct fx_outcome o = fx_measure(&sim, &c, ev, n, NULL);
	CHECK_MSG(fx_clean(&o), "%s | %s", o.msg, o.diff);
	CHECK(!touched(0x1900 + 4 * 2 + 1) && !touched(0x1900 + 4 * 3 + 1));
	bt_sim_free(&sim);
}

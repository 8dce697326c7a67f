/* SPDX-License-Identifier: MIT */
/*
 * IA32_PERF_GLOBAL_STATUS (and AMD PerfCntrGlobalStatus) as firmware may
 * leave it: the driver must count correctly whatever is set, put back every
 * bit it changed, never write a bit a register does not have, and say so
 * when a status write fails.
 */
#include "pmu/pmu-caps.h"
#include "base/array.h"
#include "pmu/pmu-session.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_sim sim;
static struct bt_event ev[FX_MAX];

static struct fx_outcome run(const char *preset, uint8_t initial)
{
	struct bt_sim_config c = *bt_sim_preset(preset);
	c.initial = initial;
	int n = fx_set_for(&c, ev);
	return fx_measure(&sim, &c, ev, n, NULL);
}

#define EXPECT_CLEAN(o, what)                                                           \
	CHECK_MSG(fx_clean(&(o)), "%s: failed=%d wrong=%d restored=%d viol=%d: %s | %s | %s", \
		  what, (o).failed, (o).wrong, (o).restored, (o).violations, (o).msg,   \
		  (o).warning, (o).diff)

/* A v4 counter counts only when its enables are set and
 * GLOBAL_STATUS.CTR_Frz is clear (SDM 20.2.4). Firmware that froze the PMU
 * (FREEZE_PERFMON_ON_PMI) leaves CTR_Frz set: every count would be 0. */
TEST(ctr_frz_left_by_firmware_is_cleared_for_the_run_and_set_back)
{
	const char *presets[] = { "skl", "icl", "lnl-p" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(presets); i++) {
		struct fx_outcome o = run(presets[i], BT_SIM_INIT_FROZEN);
		EXPECT_CLEAN(o, presets[i]);
		CHECK(o.measured > 5);
		/* Set back at close: the register file check covers it; and
		 * explicitly, CTR_Frz and LBR_Frz are set again. */
		CHECK((sim.regs.global_status >> 58 & 3) == 3);
		bt_sim_free(&sim);
	}
}

/* STATUS_SET (0x391) has no bit 63 (CondChgd) and STATUS_RESET
 * (0x390) has bit 60 (ASCI), SDM vol. 4 Table 2-2. With CondChgd and ASCI
 * set at open the driver must neither fault writing STATUS_SET nor lose
 * them. */
TEST(condchgd_and_asci_at_open_survive_and_status_set_never_gets_bit_63)
{
	struct fx_outcome o = run("skl", BT_SIM_INIT_CONDCHGD | BT_SIM_INIT_OVERFLOW);
	EXPECT_CLEAN(o, "skl");
	CHECK((sim.regs.global_status >> 60 & 1) && (sim.regs.global_status >> 63 & 1));
	for (size_t i = 0; i < sim.log_len; i++)
		if (sim.log[i].op == BT_SIM_WRMSR && sim.log[i].index == 0x391)
			CHECK_MSG(!(sim.log[i].value >> 63), "STATUS_SET written with bit 63: 0x%llx",
				  (unsigned long long)sim.log[i].value);
	bt_sim_free(&sim);
}

/* When a status write fails while restoring, the error names
 * it (it used to read "restoring the PMU: " and nothing more). Intel v4
 * (STATUS_SET) and AMD PerfMonV2 (PerfCntrGlobalStatusSet). */
TEST(a_failing_status_restore_names_the_register)
{
	const struct { const char *preset; uint32_t msr; const char *name; } cases[] = {
		{ "skl", 0x391, "IA32_PERF_GLOBAL_STATUS_SET" },
		{ "zen4", 0xC0000303, "PerfCntrGlobalStatusSet" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		struct bt_sim_config c = *bt_sim_preset(cases[i].preset);
		c.initial = BT_SIM_INIT_OVERFLOW; /* so the set register is written */
		int n = fx_set_for(&c, ev);
		/* Without the fault the same run is clean. */
		struct fx_outcome clean = fx_measure(&sim, &c, ev, n, NULL);
		EXPECT_CLEAN(clean, cases[i].preset);
		bt_sim_free(&sim);

		static const struct bt_event *evp[FX_MAX];
		static struct bt_plan plan;
		static struct bt_plan_scratch scratch;
		static struct bt_pmu_counts counts;
		fx_ptrs(ev, n, evp);
		CHECK(bt_sim_init(&sim, &c) == BT_OK);
		struct bt_pmu_caps caps;
		bt_pmu_caps_detect(&sim.arch, &caps);
		CHECK(bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) == BT_OK);
		sim.fault_msr_armed = true;
		sim.fault_msr = cases[i].msr;
		sim.fault_op = BT_SIM_WRMSR;
		struct bt_pmu_session s;
		CHECK(bt_pmu_open(&s, &sim.arch, &caps, NULL) == BT_OK);
		CHECK(bt_pmu_measure_group(&s, &plan, 0, evp, NULL, NULL, &counts) == BT_OK);
		CHECK(bt_pmu_close(&s) == BT_ERR_FAULT);
		CHECK_MSG(strstr(bt_pmu_error(&s), cases[i].name) && strstr(bt_pmu_error(&s), "#GP"),
			  "%s: \"%s\"", cases[i].preset, bt_pmu_error(&s));
		bt_sim_free(&sim);
	}
}

/* v2/v3 have no STATUS_SET. An overflow bit set at open and
 * cleared at program time could never be put back; the driver must leave
 * such bits alone (and clear at close only what its runs set). */
TEST(v2_v3_overflow_bits_left_by_firmware_are_never_cleared)
{
	const char *presets[] = { "core2", "nhm" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(presets); i++) {
		struct fx_outcome o = run(presets[i], BT_SIM_INIT_OVERFLOW | BT_SIM_INIT_CONDCHGD);
		EXPECT_CLEAN(o, presets[i]);
		for (size_t k = 0; k < sim.log_len; k++)
			if (sim.log[k].op == BT_SIM_WRMSR && sim.log[k].index == 0x390)
				CHECK_MSG(!(sim.log[k].value & 0x200000003ull),
					  "%s: OVF_CTRL cleared a bit set at open: 0x%llx", presets[i],
					  (unsigned long long)sim.log[k].value);
		bt_sim_free(&sim);
	}
}

/* A counter that overflows during our run sets its status bit; on v2/v3
 * it must be cleared at close (it was clear at open), on v4 likewise. */
TEST(overflow_during_the_run_is_cleared_at_close)
{
	const char *presets[] = { "core2", "nhm", "skl" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(presets); i++) {
		struct bt_sim_config c = *bt_sim_preset(presets[i]);
		int n = fx_set_for(&c, ev);
		/* Counters start 1000 below 2^width: every counter wraps. */
		struct bt_pmu_session_opts o = { .counter_start = (1ull << c.gp_width) - 1000 };
		struct fx_outcome r = fx_measure(&sim, &c, ev, n, &o);
		EXPECT_CLEAN(r, presets[i]);
		bt_sim_free(&sim);
	}
}
